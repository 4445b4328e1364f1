import { clearTimeout, setTimeout } from 'node:timers';
import { formatDuration } from './format-duration.js';

/**
 * How long (wall ms) cosi waits on a project's code that does not finish and that nothing else
 * can move (a top-level await or a `setup` that never settles) when `--timeout` does not say
 * less. The runtime bounds a controller's stuck reconcile the same way
 * (`ConvergeOptions.maxStall`).
 */
export const USER_CODE_WAIT = 60_000;

/** The wall-time bound on a wait for the project's code: `--timeout`, at most {@link USER_CODE_WAIT}. */
export function userCodeWait(timeout: number | undefined): number {
  return Math.min(timeout ?? USER_CODE_WAIT, USER_CODE_WAIT);
}

/**
 * `work`, or the error of `onTimeout` once `ms` wall milliseconds have passed without it settling.
 * The timer also keeps the process alive meanwhile: without it, a promise that never settles
 * and holds nothing open would end Node with exit code 13 ("unsettled top-level await").
 */
export async function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  onTimeout: (waited: string) => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout(formatDuration(ms))), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
