import type { KubernetesKind } from '../resource/definition.js';
import type { Pointer } from '../resource/pointer.js';
import type { RunRecorder } from '../record/run-record.js';
import type { State } from '../state/state.js';
import type { Clock, Timer } from './clock.js';
import type { DependencyDatabase } from './dependency-graph.js';
import type { ErrorLocator } from './error-record.js';
import type { QueueMetricsSink } from './queue-metrics.js';
import type { Logger } from './logger.js';
import type { ChangeRateLimit } from './rate-limiter.js';
import type { WakeupScheduler } from './scheduler.js';

/** See {@link RuntimeOptions.onReconcileStart}. */
export type ReconcileStartListener = (controller: string, item: Pointer | undefined) => void;

/** What a controller adapter needs from the runtime that hosts it. */
export interface RuntimeHost {
  readonly state: State;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly db: DependencyDatabase;
  readonly scheduler: WakeupScheduler;
  /** Each controller's own limit on how fast it writes; none when unset. */
  readonly changeRateLimit: ChangeRateLimit | undefined;
  /** See `RuntimeOptions.writesInFlight`. */
  readonly writesInFlight: number;
  /** See `RuntimeOptions.kubernetesKind`; `undefined`: no type is a Kubernetes kind. */
  readonly kubernetesKind: ((type: string) => KubernetesKind | undefined) | undefined;
  /** Told every reconcile, read and write when installed; `undefined` (the default) costs a check. */
  readonly recorder: RunRecorder | undefined;
  /** Told what each controller's queue does (see `RuntimeOptions.queueMetrics`); none: not measured. */
  readonly queueMetrics: QueueMetricsSink | undefined;
  /** Places a controller's error in the project's code, for its report; none when unset. */
  readonly locateError: ErrorLocator | undefined;
  /**
   * A timer the runtime keeps track of (and cancels on stop) that no running code waits for: a
   * retry, a restart (see `OutsideWait`).
   */
  setTimer(ms: number, fn: () => void): Timer;
  /** A timer the runtime keeps track of that running code waits for (a rate limiter's turn). */
  setWaitTimer(ms: number, fn: () => void): Timer;
  /**
   * A timer the runtime does not keep track of that no running code waits for: a queue's delayed
   * key, a reconcile's deadline.
   */
  setUnawaitedTimer(ms: number, fn: () => void): Timer;
  /** Failures after which a controller or an item is given up (during a convergence run). */
  maxAttempts(): number;
  /** Writes of the convergence run so far (all controllers). */
  writes(): number;
  /** The run's write bound; infinite outside a convergence run. */
  maxWrites(): number;
  onWrite(controller: string, pointer: Pointer): void;
  /** Some work happened: a reconcile started. */
  onProgress(): void;
  /** A controller stopped working (its pass ended, its last reconcile under way ended). */
  workEnded(): void;
  /**
   * Told as a reconcile (or a queue controller's mapping) starts, before the controller's code
   * runs: the controller and the item (none for a whole-world pass); `undefined` (the default)
   * costs a check.
   */
  readonly reconcileStarting: ReconcileStartListener | undefined;
  /** A controller replaced its inputs: watch what it now reads. */
  inputsChanged(controller: string): void;
}
