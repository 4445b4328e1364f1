import { describe, expect, it } from 'vitest';
import {
  COSI_HEAP_GROWING_PERCENT,
  limitHeapGrowth,
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
