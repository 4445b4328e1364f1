import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * `work`, and whether it blocked on reading the named pipe `pipe`, which no one writes: every
 * second it has not ended, the pipe is opened for writing without blocking and closed, which ends
 * a read waiting there (with no data); with no read waiting, that open fails and `work` is
 * waited for again. So `work` ends either way, however slow the machine.
 */
export async function unblockedAfter<T>(
  work: Promise<T>,
  pipe: string,
): Promise<{ blocked: boolean; value: T }> {
  let blocked = false;
  const done = work.then((value) => ({ value }));
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise<undefined>(
      (resolve) => (timer = setTimeout(() => resolve(undefined), 1000)),
    );
    const ended = await Promise.race([done, tick]);
    clearTimeout(timer);
    if (ended !== undefined) return { blocked, value: ended.value };
    try {
      const writer = await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK);
      await writer.close();
      blocked = true;
    } catch {
      // ENXIO: no one is reading the pipe; the work is only slow.
    }
  }
}
