import { formatDuration } from './format-duration.js';
import type { UserCodeSite } from './user-code-site.js';

/**
 * How long (wall ms) cosi waits on a project's code that does not finish and that nothing else
 * can move (a top-level await or a `setup` that never settles) when `--timeout` does not say
 * less. The runtime bounds a controller's stuck reconcile the same way
 * (`ConvergeOptions.maxStall`).
 */
export const USER_CODE_WAIT = 60_000;

/**
 * The least wall time the config gets to load, and its `setup` to run, whatever `--timeout`
 * says: `--timeout` bounds the run in simulated time, and a config that spends a moment on its
 * import (a large generated module) on a slow, shared machine is no endless loop.
 */
export const CONFIG_LOAD_WAIT = 5_000;

/**
 * The wall-time bound on a wait for the project's code: `--timeout`, at most
 * {@link USER_CODE_WAIT}; for the config's loading and `setup` (`site`), at least
 * {@link CONFIG_LOAD_WAIT}.
 */
export function userCodeWait(
  timeout: number | undefined,
  site?: { readonly kind: UserCodeSite['kind'] },
): number {
  const bound = Math.min(timeout ?? USER_CODE_WAIT, USER_CODE_WAIT);
  return site?.kind === 'config' || site?.kind === 'setup'
    ? Math.max(bound, CONFIG_LOAD_WAIT)
    : bound;
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
