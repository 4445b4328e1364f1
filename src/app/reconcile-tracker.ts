import type {
  ReconcileJob,
  ReconcileOutcome,
  RunRecorder,
  WriteOp,
} from '../engine/record/run-record.js';
import type { Pointer } from '../engine/resource/pointer.js';

/**
 * How a reconcile ended, as controller-runtime's `controller_runtime_reconcile_total` says it:
 * `requeue` is its `Requeue: true` (cosi's `{ requeue: true }`, back after the item's backoff),
 * `requeue_after` its `RequeueAfter` (back after the interval asked for).
 */
export type ReconcileResult = 'success' | 'error' | 'requeue' | 'requeue_after';

/**
 * What an error a reconcile ended with was besides an error: `terminal` (not retried, as
 * controller-runtime's `controller_runtime_terminal_reconcile_errors_total` counts), or `panic`,
 * a fault of the code (a `TypeError`, a call of `process.exit`: see `isCodeFault`), as its
 * `controller_runtime_reconcile_panics_total` counts the panics it recovers from.
 */
export type ReconcileFailure = 'terminal' | 'panic';

/** What a long-lived run counts of its reconciles (`cosi run`'s metrics). */
export interface ReconcileCounts {
  /**
   * A reconcile (or a whole-world pass) ended after `seconds`; `retried`: its item comes back
   * through the rate limiter (an error that is retried, a `requeue`), as controller-runtime's
   * `AddRateLimited`, which `workqueue_retries_total` counts; `failure`: what its error was
   * besides one.
   */
  reconciled(
    controller: string,
    result: ReconcileResult,
    seconds: number,
    retried: boolean,
    failure?: ReconcileFailure,
  ): void;
  /** A controller changed the state. */
  wrote(controller: string, op: WriteOp): void;
}

/** A reconcile still running `ms` after it started: it awaits something that never comes? */
export interface StalledReconcile {
  readonly controller: string;
  readonly pointer?: Pointer;
  readonly ms: number;
}

/** What {@link createReconcileTracker} takes. */
export interface ReconcileTrackerOptions {
  readonly counts: ReconcileCounts;
  /** Wall ms a reconcile may run before it is reported stalled (once). */
  readonly stallAfter: number;
  readonly onStall: (stalled: StalledReconcile) => void;
  /** How often the reconciles under way are looked at, wall ms: a quarter of `stallAfter`, 1 s at most. */
  readonly checkEvery?: number;
}

interface Running {
  readonly controller: string;
  readonly pointer: Pointer | undefined;
  readonly started: number;
  /** A reconcile or a whole-world pass (a mapping of an event is neither). */
  readonly timed: boolean;
  reported: boolean;
}

/**
 * The run recorder of a long-lived run (the runtime's `recorder` option): it counts and times
 * each reconcile as it ends, and reports, once, each one still running after `stallAfter` (a
 * reconcile awaiting a promise that never settles: the runtime cannot stop it, and a queue
 * controller's worker stays taken). `stop()` ends its timer.
 */
export function createReconcileTracker(
  options: ReconcileTrackerOptions,
): RunRecorder & { stop(): void } {
  const running = new Map<number, Running>();
  let seq = 0;
  const { counts, stallAfter } = options;
  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const entry of running.values()) {
        if (entry.reported || !entry.timed || now - entry.started < stallAfter) continue;
        entry.reported = true;
        options.onStall({
          controller: entry.controller,
          ...(entry.pointer ? { pointer: entry.pointer } : {}),
          ms: now - entry.started,
        });
      }
    },
    options.checkEvery ?? Math.min(1000, Math.max(10, stallAfter / 4)),
  );
  timer.unref();
  return {
    start: (controller: string, job: ReconcileJob, item: Pointer | undefined): number => {
      running.set(++seq, {
        controller,
        pointer: item,
        started: performance.now(),
        timed: job === 'run' || job === 'reconcile',
        reported: false,
      });
      return seq;
    },
    read: () => undefined,
    wrote: (at: number, op: WriteOp) => {
      const entry = running.get(at);
      if (entry) counts.wrote(entry.controller, op);
    },
    mapped: () => undefined,
    end: (at: number, outcome: ReconcileOutcome) => {
      const entry = running.get(at);
      running.delete(at);
      if (!entry?.timed || outcome.kind === 'stopped' || outcome.kind === 'skip') return;
      const result: ReconcileResult =
        outcome.kind === 'error'
          ? 'error'
          : outcome.kind === 'requeue'
            ? outcome.after > 0 && outcome.rateLimited !== true
              ? 'requeue_after'
              : 'requeue'
            : 'success';
      // A terminal error, or one given up on, does not come back.
      const retried =
        result === 'requeue' ||
        (outcome.kind === 'error' && outcome.terminal !== true && outcome.gaveUp !== true);
      const seconds = (performance.now() - entry.started) / 1000;
      const failure: ReconcileFailure | undefined =
        outcome.kind !== 'error'
          ? undefined
          : outcome.terminal === true
            ? 'terminal'
            : outcome.fault === true
              ? 'panic'
              : undefined;
      counts.reconciled(entry.controller, result, seconds, retried, failure);
    },
    stop: () => {
      clearInterval(timer);
    },
  };
}
