import { describe, expect, it } from 'vitest';
import { forEachConcurrently } from '../../src/engine/for-each-concurrently.js';

/** A promise with its resolve, to let a task finish when the test says. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const turns = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('forEachConcurrently', () => {
  it('with a limit of 1 runs the items one after another, in order', async () => {
    const log: string[] = [];
    await forEachConcurrently(['a', 'b', 'c'], 1, async (item, index) => {
      log.push(`start ${item}${index}`);
      await turns();
      log.push(`end ${item}`);
    });
    expect(log).toEqual(['start a0', 'end a', 'start b1', 'end b', 'start c2', 'end c']);
  });

  it('keeps at most `limit` under way, and starts the next as one ends', async () => {
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const done = forEachConcurrently([0, 1, 2, 3], 2, async (i) => {
      started.push(i);
      await (gates[i] as ReturnType<typeof gate>).promise;
    });
    await turns();
    expect(started).toEqual([0, 1]);
    gates[1]?.open();
    await turns();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await done;
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('starts nothing after a failure, waits for what is under way, and throws the first failure', async () => {
    const slow = gate();
    const started: number[] = [];
    let slowEnded = false;
    const done = forEachConcurrently([0, 1, 2, 3], 2, async (i) => {
      started.push(i);
      if (i === 0) {
        await slow.promise;
        slowEnded = true;
        return;
      }
      throw new Error(`failed ${i}`);
    });
    let settled = false;
    void done.catch(() => undefined).then(() => (settled = true));
    await turns();
    // Item 1 failed: items 2 and 3 never start, and the call waits for item 0.
    expect(started).toEqual([0, 1]);
    expect(settled).toBe(false);
    slow.open();
    await expect(done).rejects.toThrow('failed 1');
    expect(slowEnded).toBe(true);
    expect(started).toEqual([0, 1]);
  });

  it('refuses a limit below 1', async () => {
    await expect(forEachConcurrently([1], 0, () => Promise.resolve())).rejects.toThrow(RangeError);
  });
});
