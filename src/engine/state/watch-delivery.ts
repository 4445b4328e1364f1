import type { AggregatedWatchListener, WatchListener } from './state.js';

/**
 * How a watch hands its events over: one by one, or in batches. One by one may be `inline`:
 * while nothing is queued, a change goes to the listener at once, inside the write (a core may
 * deliver later anyway: the etcd one does).
 */
export type Delivery =
  | { readonly aggregated: false; readonly listener: WatchListener; readonly inline?: boolean }
  | { readonly aggregated: true; readonly listener: AggregatedWatchListener };

/**
 * Calls `resume` once the promise a listener returned settles; a rejection is reported to
 * `onListenerError` first, and the watch goes on.
 */
export function afterListener(
  result: PromiseLike<unknown>,
  onListenerError: (error: unknown) => void,
  resume: () => void,
): void {
  result.then(resume, (error: unknown) => {
    onListenerError(error);
    resume();
  });
}
