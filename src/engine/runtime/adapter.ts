import type { Pointer } from '../resource/pointer.js';
import type { ResourceEvent } from '../state/state.js';
import type { Input } from './controller.js';
import type { ControllerReport } from './convergence.js';
import type { ControllerMetrics, ControllerStatus } from './metrics.js';
import type { QueueWorkload } from './queue-metrics.js';

/** An adapter's part of its {@link ControllerReport}; the runtime adds the name and the counts. */
export type AdapterReport = Pick<
  ControllerReport,
  'kind' | 'condition' | 'lastError' | 'failingItems' | 'waitingItems'
> & {
  /** In `backoff`: when the next attempt is due (clock ms); the runtime reports it as `retryIn`. */
  readonly retryAt?: number;
  /** While it runs: the item it started last (queue controllers). */
  readonly inFlight?: Pointer;
};

/**
 * How the runtime runs a controller, whichever kind it is (COSI's one adapter interface): the
 * runtime routes events to it, starts, resumes and stops it, asks whether it is idle and what to
 * report, and never needs to know which kind of controller is inside.
 */
export interface Adapter {
  readonly name: string;
  readonly status: ControllerStatus;
  readonly metrics: Readonly<ControllerMetrics>;
  /** Nothing runnable right now: what is left waits on events, on the clock, or was given up. */
  readonly idle: boolean;
  /**
   * Running the controller's code right now (a pass, or reconciles under way): what a
   * controller downstream of it waits for before it wakes (see `WakeupScheduler`).
   */
  readonly working: boolean;
  /** Jobs (reconciles, mappings, passes) finished so far. */
  readonly completed: number;
  /**
   * The jobs running now, each by the number it started with: the same for as long as the same
   * jobs are still running, whatever else the controller does meanwhile; `''` when none.
   */
  readonly runningJobs: string;
  /** What {@link completed} reaches once the work under way and the work ready now are done. */
  readonly owed: number;
  /** Starts the controller (idempotent). */
  start(): Promise<void>;
  /** Stops it and waits for what it is running to end. */
  stop(): Promise<void>;
  /**
   * At the start of a convergence run: gives what was given up in an earlier run another chance
   * and picks up work that a paused run left waiting.
   */
  resumeProcessing(): void;
  /** Picks up work that a paused run left waiting, and nothing else (time moved on, no new run). */
  resumeWaiting(): void;
  /** A change of a resource that `input` (one of the controller's inputs) matches. */
  deliver(input: Input, event: ResourceEvent): void;
  report(): AdapterReport;
  /** What it has waiting and under way now (see `Runtime.workload`). */
  workload(): QueueWorkload;
}
