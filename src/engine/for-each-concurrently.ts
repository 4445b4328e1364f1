/**
 * Runs `fn` on every item in order of start, at most `limit` at a time (1: one after another,
 * exactly as a `for` loop with an `await` would). When one fails, no further item is started,
 * the ones under way are waited for, and the first failure is thrown: nothing is left running
 * behind the caller's back.
 *
 * @example
 * await forEachConcurrently(keys, 16, async (key) => { await write(key); });
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  if (!(limit >= 1)) throw new RangeError(`limit must be at least 1, got ${limit}`);
  let next = 0;
  /** The first failure, once there is one (an object: the workers set it). */
  const outcome: { failed: boolean; failure: unknown } = { failed: false, failure: undefined };
  const fail = (error: unknown): void => {
    if (outcome.failed) return;
    outcome.failed = true;
    outcome.failure = error;
  };
  const worker = async (): Promise<void> => {
    while (!outcome.failed && next < items.length) {
      const index = next++;
      try {
        await fn(items[index] as T, index);
      } catch (error) {
        // Only the first failure is kept: another worker may have failed while this one ran.
        fail(error);
      }
    }
  };
  const workers = Math.min(Math.floor(limit), items.length);
  if (workers === 1) await worker();
  else await Promise.all(Array.from({ length: workers }, worker));
  if (outcome.failed) throw outcome.failure;
}
