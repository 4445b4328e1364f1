/**
 * Polls `condition` until it returns something truthy, and returns that; fails after `timeoutMs`
 * with the last value in the message. For real processes (etcd, `cosi run`), where a condition
 * is awaited, never slept for.
 *
 * `hopeless` says why the condition can no longer come true ("cosi run exited with code 1": the
 * process that would satisfy it has ended), or `undefined` while it still can: the wait then fails
 * at once, its message headed by that reason, instead of at the timeout.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  timeoutMs: number,
  what: string | (() => string) = 'the condition',
  hopeless: () => string | undefined = () => undefined,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  const described = (): string => (typeof what === 'string' ? what : what());
  let last: unknown;
  for (;;) {
    // Asked before the condition: a condition read after the end is read on everything there is.
    const reason = hopeless();
    try {
      const value = await condition();
      if (value) return value;
      last = value;
    } catch (error) {
      // Retried: a condition on a process may throw while it starts (a connection refused).
      last = error;
    }
    if (reason !== undefined) {
      throw new Error(`${reason} while waiting for ${described()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${described()} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
