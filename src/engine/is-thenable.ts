/**
 * Whether a value is a promise (or any thenable): a listener or an updater may return one, and
 * only then is it awaited, so a synchronous callback costs no turn of the microtask queue.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
