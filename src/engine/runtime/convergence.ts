import type { CodeLocation } from './error-record.js';
import type { Pointer } from '../resource/pointer.js';
import { pointerKey, toPointer } from '../resource/pointer.js';
import { compareStrings } from '../compare-strings.js';
import type { ErrorRecord } from './error-record.js';
import type { ControllerCondition, ControllerMetrics } from './metrics.js';

/** Bounds of a convergence run. */
export interface ConvergeOptions {
  /** Writes (by all controllers) after which the run stops as not converged. */
  readonly maxWrites?: number;
  /** Virtual (or, on a real clock, wall) milliseconds after which the run stops. */
  readonly maxTime?: number;
  /** Consecutive failures after which a controller or an item is given up for this run. */
  readonly maxAttempts?: number;
  /**
   * Wall milliseconds the run may wait on work that nothing in it can move (a controller awaiting
   * a promise that never settles: nothing runnable, no timer due) before it stops as
   * `max-time`, with that wait counted toward `maxTime` too. The report names the controllers
   * (`stuck`).
   */
  readonly maxStall?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_CONVERGE_OPTIONS = {
  maxWrites: 100_000,
  maxTime: 60 * 60 * 1000,
  maxAttempts: 10,
  maxStall: 60_000,
} as const;

/**
 * Why a convergence run ended. `quiescent`: nothing left to do. `steady`: nothing left but
 * periodic requeues that write nothing (a resync), until the time bound; converged, as
 * `quiescent`. `failing`: nothing left but controllers or items that kept failing until their
 * attempt bound. `max-writes` / `max-time`: a bound was hit. `aborted`: the signal fired, or the runtime
 * was stopped.
 */
export type ConvergenceReason =
  'quiescent' | 'steady' | 'failing' | 'max-writes' | 'max-time' | 'aborted';

/** A queue controller's item still failing when the run ended. */
export interface ItemFailure {
  /** The item, or the changed input a failing mapping is for. */
  readonly pointer: Pointer;
  readonly attempts: number;
  readonly error: ErrorRecord;
  /**
   * `true` when what fails is the mapping of a change to the items it affects (`mapInput`, or a
   * builder's predicates and map functions), not a reconcile.
   */
  readonly mapping?: true;
}

/** One controller's part of a {@link ConvergenceReport}. */
export interface ControllerReport {
  readonly name: string;
  readonly kind: 'controller' | 'qcontroller';
  readonly condition: ControllerCondition;
  readonly reconciles: number;
  /** Changes this controller made to the state (its `writes` metric counts state calls). */
  readonly writes: number;
  readonly errors: number;
  readonly restarts: number;
  readonly lastError?: ErrorRecord;
  /** Queue controllers: items still failing. */
  readonly failingItems: readonly ItemFailure[];
  /**
   * Queue controllers: items waiting to be reconciled again after a delay (a requeue or a
   * backoff), sorted. When a time bound ends the run, these are what kept it going.
   */
  readonly waitingItems: readonly Pointer[];
  /**
   * In `backoff`: how long after the end of the run (clock ms, virtual on the simulated clock)
   * the next attempt is due: the restart of a whole-world controller, or the earliest retry of a
   * queue controller's failing items.
   */
  readonly retryIn?: number;
  /**
   * When the run stopped waiting on it: it was still running (a reconcile that never returned,
   * awaiting something outside the run), for `waited` wall ms; a queue controller's item is the
   * last one it started.
   */
  readonly stuck?: {
    readonly waited: number;
    readonly pointer?: Pointer;
    /**
     * Where the project's code made the controller (a transform's, a queue transform's factory
     * call), as a thrown error is placed where it was thrown: a reconcile that never ended has no
     * stack of its own. Absent for a controller no factory made, or without a locator.
     */
    readonly location?: CodeLocation;
  };
  /**
   * When a time bound (`max-time`) ended the run while its code was still running and not
   * {@link stuck}: a reconcile (or pass) that had not returned; a queue controller's item is the
   * last one it started. A reconcile awaiting a promise that never settles shows here when the
   * other controllers' timers reach the bound before the wall-time stall does.
   */
  readonly runningAtEnd?: { readonly pointer?: Pointer };
  readonly metrics: Readonly<ControllerMetrics>;
}

/** A resource that kept changing, and who changed it. */
export interface OscillatingResource {
  readonly pointer: Pointer;
  readonly writes: number;
  readonly writers: readonly string[];
}

/** What `converge` returns. Deterministic: the same input gives the same report. */
export interface ConvergenceReport {
  readonly converged: boolean;
  readonly reason: ConvergenceReason;
  /** Settle rounds: one per jump of the clock, plus the last. */
  readonly rounds: number;
  /** Clock time the run took (virtual on the simulated clock). */
  readonly elapsed: number;
  readonly reconciles: number;
  readonly writes: number;
  readonly errors: number;
  /** Sorted by name. */
  readonly controllers: readonly ControllerReport[];
  /**
   * When not converged: the resources written most, most first, counted over the last
   * {@link OSCILLATION_WINDOW} writes of the run.
   */
  readonly oscillating: readonly OscillatingResource[];
}

/** How many of the last writes the oscillation counts of a report cover. */
export const OSCILLATION_WINDOW = 4096;

/**
 * Remembers the last writes in a ring, to name what kept changing when a run did not settle:
 * constant work per write and constant memory, however large the run.
 */
export class WriteTracker {
  #total = 0;
  readonly #writers: string[];
  readonly #pointers: Pointer[];

  constructor(readonly window = OSCILLATION_WINDOW) {
    this.#writers = new Array<string>(window);
    this.#pointers = new Array<Pointer>(window);
  }

  get total(): number {
    return this.#total;
  }

  record(controller: string, pointer: Pointer): void {
    const slot = this.#total % this.window;
    this.#writers[slot] = controller;
    this.#pointers[slot] = pointer;
    this.#total++;
  }

  reset(): void {
    this.#total = 0;
    this.#writers.fill('');
    this.#pointers.fill(undefined as unknown as Pointer);
  }

  /**
   * The resources written more than `threshold` times in the recent window, most written first,
   * at most `limit`.
   */
  hottest(limit = 10, threshold = 2): OscillatingResource[] {
    const counts = new Map<string, { pointer: Pointer; writes: number; writers: Set<string> }>();
    const n = Math.min(this.#total, this.window);
    for (let i = 0; i < n; i++) {
      const pointer = this.#pointers[i] as Pointer;
      const key = pointerKey(pointer);
      let entry = counts.get(key);
      if (!entry)
        counts.set(key, (entry = { pointer: toPointer(pointer), writes: 0, writers: new Set() }));
      entry.writes++;
      entry.writers.add(this.#writers[i] as string);
    }
    return [...counts.entries()]
      .filter(([, e]) => e.writes > threshold)
      .sort(([ka, a], [kb, b]) => b.writes - a.writes || compareStrings(ka, kb))
      .slice(0, limit)
      .map(([, e]) => ({ pointer: e.pointer, writes: e.writes, writers: [...e.writers].sort() }));
  }
}

/**
 * One report for two convergence runs in a row (the second continuing the first): counts and
 * time add up, per controller too; the outcome, each controller's status and what kept changing
 * are the later run's.
 */
export function mergeReports(
  earlier: ConvergenceReport,
  later: ConvergenceReport,
): ConvergenceReport {
  const before = new Map(earlier.controllers.map((c) => [c.name, c]));
  return {
    ...later,
    ...sum(earlier, later, ['rounds', 'elapsed', 'reconciles', 'writes', 'errors']),
    controllers: later.controllers.map((c) => {
      const e = before.get(c.name);
      if (e === undefined) return c;
      return {
        ...c,
        ...sum(e, c, ['reconciles', 'writes', 'errors', 'restarts']),
        ...(c.lastError === undefined && e.lastError !== undefined
          ? { lastError: e.lastError }
          : {}),
      };
    }),
  };
}

/** `a[key] + b[key]` for each of the numeric `keys`. */
function sum<T, K extends keyof T>(a: T, b: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = ((a[key] as number) + (b[key] as number)) as T[K];
  return out;
}
