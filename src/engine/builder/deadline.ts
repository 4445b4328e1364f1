import type { Clock, Timer } from '../runtime/clock.js';
import type { ControllerContext } from '../runtime/controller.js';

/** The signal of one reconcile, and the way to let go of its timer once the reconcile is over. */
export interface Deadline {
  readonly signal: AbortSignal;
  cancel(): void;
}

/**
 * A reconcile's signal: aborted when the controller stops (`stopped`), or after `timeout` ms on
 * `clock` with a `TimeoutError`, as `AbortSignal.timeout` would on wall time. The timer is on the
 * runtime's clock so that a simulated clock fires it: a reconcile stuck waiting is then cut off
 * without a real wait. controller-runtime's `ReconciliationTimeout`.
 */
export function createDeadline(
  clock: Pick<Clock, 'setTimer'>,
  timeout: number | undefined,
  stopped: AbortSignal | undefined,
): Deadline {
  const abort = new AbortController();
  let timer: Timer | undefined;
  const onStop = (): void => abort.abort(stopped?.reason);
  if (stopped?.aborted) onStop();
  else stopped?.addEventListener('abort', onStop, { once: true });
  if (timeout !== undefined && timeout > 0) {
    timer = clock.setTimer(timeout, () => {
      abort.abort(new DOMException(`reconcile timed out after ${timeout} ms`, 'TimeoutError'));
    });
  }
  return {
    signal: abort.signal,
    cancel() {
      timer?.cancel();
      stopped?.removeEventListener('abort', onStop);
    },
  };
}

/**
 * What a reconcile's deadline is timed on: the controller context's deadline timers, which a
 * convergence run does not jump to while the reconcile waits on the outside world (a call that
 * answers in 50 ms is not timed out by a simulated 5 s), else its clock.
 */
export function deadlineClock(
  rt: Pick<ControllerContext, 'clock' | 'setDeadline'>,
): Pick<Clock, 'setTimer'> {
  const setDeadline = rt.setDeadline?.bind(rt);
  return setDeadline ? { setTimer: setDeadline } : rt.clock;
}
