import type { ControllerCondition, ControllerMetrics } from './metrics.js';

/** What the polling check reads of a controller at the end of a run. */
export interface PolledController {
  readonly name: string;
  readonly metrics: Readonly<ControllerMetrics>;
  readonly condition: ControllerCondition;
  readonly failingItems: number;
  readonly waitingItems: number;
}

/**
 * Tells a run that is only polling from one that is still working. controller-runtime's periodic
 * resync (`{ requeueAfter: 5m }` from a reconcile that found nothing to do) never leaves the
 * queue empty, so a run on the simulated clock goes on to its time bound; if nothing was written
 * for the rest of it, every requeued item came back at least once after the last write, and
 * nothing failed since, the state is a fixed point of the controllers: the run is `steady`, which
 * counts as converged. Reaching the bound is asked for first (rather than calling a run steady at
 * the first quiet requeue) so that a controller waiting on the clock itself (write once an hour of
 * virtual time has passed) has the whole bound to write in. A controller that requeues and has
 * never tried to write is not resyncing what it manages but waiting for something no one in the
 * run provides (a status no controller sets): that run is not steady, and its report names it.
 */
export class PollingWatch {
  #writes = -1;
  readonly #atLastWrite = new Map<string, { reconciles: number; crashes: number }>();

  /** Called after each round with the run's write count, to note the state at the last write. */
  observe(writes: number, controllers: Iterable<{ name: string; metrics: ControllerMetrics }>) {
    if (writes === this.#writes) return;
    this.#writes = writes;
    for (const { name, metrics } of controllers) {
      this.#atLastWrite.set(name, { reconciles: metrics.reconciles, crashes: metrics.crashes });
    }
  }

  /** Whether the run, ended by its time bound with `writes` written, was only polling. */
  steady(writes: number, controllers: readonly PolledController[]): boolean {
    if (writes !== this.#writes) return false;
    let reconciledSince = 0;
    for (const c of controllers) {
      const before = this.#atLastWrite.get(c.name) ?? { reconciles: 0, crashes: 0 };
      if (c.metrics.crashes !== before.crashes || c.failingItems > 0) return false;
      if (c.condition === 'failed' || c.condition === 'backoff') return false;
      const reconciles = c.metrics.reconciles - before.reconciles;
      if (reconciles < c.waitingItems) return false;
      if (c.waitingItems > 0 && c.metrics.writes === 0) return false;
      reconciledSince += reconciles;
    }
    return reconciledSince > 0;
  }
}
