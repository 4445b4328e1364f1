/** How a queue controller's job that threw ended, as the run record names it. */
import { isCodeFault, isRequeue, isSkip, toError } from '../errors.js';
import type { ReconcileOutcome } from '../record/run-record.js';
import type { FailingItem } from './failing-items.js';

/**
 * The outcome of a job that threw `error`, once the failure was handled: `failing` is the item's
 * failure record then (none after a skip or a plain requeue).
 */
export function failedJobOutcome(
  error: unknown,
  failing: FailingItem | undefined,
): ReconcileOutcome {
  if (isSkip(error)) return { kind: 'skip' };
  if (isRequeue(error) && error.cause === undefined) {
    return {
      kind: 'requeue',
      after: error.interval,
      ...(error.rateLimited === true ? { rateLimited: true as const } : {}),
    };
  }
  return {
    kind: 'error',
    message: failing?.lastError.message ?? toError(error).message,
    ...(failing?.terminal === true ? { terminal: true } : {}),
    // A terminal error is never retried: it was not given up after attempts.
    ...(failing?.gaveUp === true && !failing.terminal ? { gaveUp: true } : {}),
    ...(isCodeFault(error) ? { fault: true as const } : {}),
  };
}
