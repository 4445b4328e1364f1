import type { Clock, Timer } from './clock.js';

/**
 * Wall ms a convergence run on a virtual clock gives work in flight that stopped moving before
 * time jumps to the next timer, when no pending timer is one that running code waits for: the
 * work then waits on the outside world (a network call, a file, a state behind I/O), whose answer
 * takes no virtual time. Long enough for a call that answers, short enough that a reconcile
 * awaiting what never comes costs little before its deadline fires.
 */
export const OUTSIDE_GRACE = 1000;

/**
 * Tells apart, on a virtual clock, work that waits on the clock from work that waits on the
 * outside world, so that the convergence loop does not move time past the latter.
 *
 * The runtime sets two kinds of timers that no running code waits for: those that start new work
 * (a requeue, a backoff, a restart) and those that cut work off (a reconcile's deadline). Any
 * other timer on the clock (a rate limiter's turn, a sleep in a controller, injected latency) may
 * be what the work in flight waits for, and then time must move. When every pending timer is of
 * the first two kinds, the work in flight waits on something else: in real time it would come
 * back long before a 5 s deadline or a 1 s requeue, so jumping to them at once would time out a
 * call that succeeds, or race through an hour of polling while one reconcile reads a file. Go's
 * `testing/synctest` holds time the same way while a goroutine is in I/O.
 *
 * What never comes back (a promise that never settles) cannot be told from a slow answer; it is
 * given {@link OUTSIDE_GRACE} once, then time moves on as before, so its deadline still ends it.
 *
 * @example
 * const outside = new OutsideWait(clock);
 * const retry = outside.setTimer(500, () => requeue()); // starts new work: not waited for
 * // when the jobs running now (`signature`) made no progress for a while:
 * if (outside.holdsTime(signature, performance.now())) await realDelay(1);
 * else clock.advanceTo(clock.nextTimerAt()!);
 */
export class OutsideWait {
  /** Pending timers set through {@link setTimer}. */
  #unawaited = 0;
  /** The work in flight being waited for, and since when (wall ms). */
  #waiting: { readonly signature: string; readonly since: number } | undefined;
  /** The work in flight that had its grace and did not come back. */
  #spent: string | undefined;

  constructor(private readonly clock: Pick<Clock, 'setTimer' | 'pendingTimers'>) {}

  /** A timer that no running code waits for: one that starts new work, or cuts work off. */
  setTimer(ms: number, fn: () => void): Timer {
    let pending = true;
    const settle = (): void => {
      if (!pending) return;
      pending = false;
      this.#unawaited--;
    };
    this.#unawaited++;
    const timer = this.clock.setTimer(ms, () => {
      settle();
      fn();
    });
    return {
      cancel: () => {
        settle();
        timer.cancel();
      },
    };
  }

  /**
   * Whether the convergence loop should keep waiting in wall time instead of moving virtual time,
   * for the work in flight named by `signature` (the jobs running now, the same while they are
   * still running): when no pending timer may be one it waits for, until it has had
   * {@link OUTSIDE_GRACE}, once.
   */
  holdsTime(signature: string, now: number): boolean {
    if (signature === '' || signature === this.#spent) return false;
    const all = this.clock.pendingTimers?.();
    // A clock that cannot count its timers, or a timer that running code may wait for: time moves.
    if (all === undefined || all > this.#unawaited) return false;
    if (this.#waiting?.signature !== signature) this.#waiting = { signature, since: now };
    if (now - this.#waiting.since < OUTSIDE_GRACE) return true;
    this.#spent = signature;
    return false;
  }

  /** A new convergence run: the work in flight gets its grace again. */
  reset(): void {
    this.#waiting = undefined;
    this.#spent = undefined;
  }
}
