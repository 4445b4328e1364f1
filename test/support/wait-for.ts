/**
 * Polls `condition` until it returns something truthy, and returns that; fails after `timeoutMs`
 * with the last value in the message. For real processes (etcd, `cosi run`), where a condition
 * is awaited, never slept for.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  timeoutMs: number,
  what: string | (() => string) = 'the condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value;
      last = value;
    } catch (error) {
      // Retried: a condition on a process may throw while it starts (a connection refused).
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
