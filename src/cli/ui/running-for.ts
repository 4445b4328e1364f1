import { useEffect, useState } from 'react';

/**
 * How long a round runs before the screen says so: a round of a few milliseconds (most) would
 * otherwise flash the header at each save.
 */
export const RUNNING_SHOWN_AFTER_MS = 300;

/**
 * For how many whole seconds something that started at `since` (epoch ms) has run: undefined
 * before {@link RUNNING_SHOWN_AFTER_MS} and when nothing runs. The component re-renders when it
 * is first shown and at each whole second after, on the main thread's timers: a round stuck in
 * the project's code (in the worker thread) does not stop the count.
 */
export function useRunningFor(since: number | undefined): number | undefined {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (since === undefined) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (): void => {
      const elapsed = Date.now() - since;
      const next =
        elapsed < RUNNING_SHOWN_AFTER_MS
          ? RUNNING_SHOWN_AFTER_MS - elapsed
          : 1000 - (elapsed % 1000);
      timer = setTimeout(() => {
        setTick((tick) => tick + 1);
        schedule();
      }, next);
      // The count never keeps the process alive.
      timer.unref();
    };
    schedule();
    return () => clearTimeout(timer);
  }, [since]);
  if (since === undefined) return undefined;
  const elapsed = Date.now() - since;
  return elapsed < RUNNING_SHOWN_AFTER_MS ? undefined : Math.floor(elapsed / 1000);
}
