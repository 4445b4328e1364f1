import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import {
  COSI_HEAP_GROWING_PERCENT,
  limitHeapGrowth,
  limitHeapGrowthOnceCollected,
  userChoseHeapGrowth,
} from '../../src/cli/heap-growth.js';

describe("the cosi process's heap growth step", () => {
  it('is set to V8 as a flag when the user chose none', () => {
    const set: string[] = [];
    expect(
      limitHeapGrowth(['--enable-source-maps'], '--max-old-space-size=4096', (f) => set.push(f)),
    ).toBe(true);
    expect(set).toEqual([`--heap-growing-percent=${COSI_HEAP_GROWING_PERCENT}`]);
  });

  it("leaves the user's choice alone, on the command line or in NODE_OPTIONS, in either spelling", () => {
    const set: string[] = [];
    const never = (f: string): void => void set.push(f);
    expect(limitHeapGrowth(['--heap-growing-percent=100'], '', never)).toBe(false);
    expect(limitHeapGrowth([], '--inspect --heap_growing_percent=80', never)).toBe(false);
    expect(set).toEqual([]);
  });

  it('tells the flag apart from others that merely share words with it', () => {
    expect(
      userChoseHeapGrowth(['--heap-prof', '--max-heap-size=100'], '--heap-snapshot-signal=SIGUSR2'),
    ).toBe(false);
    expect(userChoseHeapGrowth([], '  --heap-growing-percent=10  ')).toBe(true);
  });
});

describe('limitHeapGrowthOnceCollected', () => {
  /** A full collection, on demand: V8's `gc` exposed to a fresh context. */
  const fullCollection = (): void => {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  };

  it('sets the step at the first full collection, once', async () => {
    let calls = 0;
    const watch = limitHeapGrowthOnceCollected(() => {
      calls++;
      return true;
    });
    try {
      fullCollection();
      await vi.waitFor(() => {
        expect(calls).toBe(1);
      });
      expect(watch.limited()).toBe(true);

      fullCollection();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(calls).toBe(1);
    } finally {
      watch.stop();
    }
  });

  it('says it did not limit when the user chose a step', async () => {
    let calls = 0;
    const watch = limitHeapGrowthOnceCollected(() => {
      calls++;
      return false;
    });
    try {
      fullCollection();
      await vi.waitFor(() => {
        expect(calls).toBe(1);
      });
      expect(watch.limited()).toBe(false);
    } finally {
      watch.stop();
    }
  });
});
