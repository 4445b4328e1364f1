/**
 * Per-controller counters, with COSI's names. The queue-only ones stay 0 for whole-world
 * controllers.
 */
export interface ControllerMetrics {
  /** Times the controller was woken (whole-world) or an item was taken (queue). */
  wakeups: number;
  /** State reads, counted as COSI's metrics wrapper counts them (see `ControllerFacade`). */
  reads: number;
  /** State writes attempted, failed ones included, counted as COSI's metrics wrapper does. */
  writes: number;
  /** Failed runs (whole-world) or failed reconciles (queue). */
  crashes: number;
  /** Reconcile passes: loop iterations (whole-world) or `reconcile` calls (queue). */
  reconciles: number;
  /** Restarts of a whole-world `run` or of a queue controller's run hook. */
  restarts: number;
  processed: number;
  requeues: number;
  skips: number;
  mappedIn: number;
  mappedOut: number;
  queueLength: number;
}

export function createMetrics(): ControllerMetrics {
  return {
    wakeups: 0,
    reads: 0,
    writes: 0,
    crashes: 0,
    reconciles: 0,
    restarts: 0,
    processed: 0,
    requeues: 0,
    skips: 0,
    mappedIn: 0,
    mappedOut: 0,
    queueLength: 0,
  };
}

/**
 * What a controller is doing. `backoff`: waiting to restart after an error. `failed`: gave up
 * after the attempt bound of a convergence run.
 */
export type ControllerCondition = 'idle' | 'running' | 'backoff' | 'failed' | 'stopped';

/** A controller's condition and, once something failed, its last error. */
export interface ControllerStatus {
  readonly condition: ControllerCondition;
  readonly lastError?: Error;
}
