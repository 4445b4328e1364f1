import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealClock, SimulatedClock } from '../../../src/index.js';
import { ExponentialBackoff } from '../../../src/engine/runtime/backoff.js';

describe('the simulated clock', () => {
  it('moves only when told, and fires timers due in order of time then of setting', () => {
    const clock = new SimulatedClock(1000);
    const fired: string[] = [];
    clock.setTimer(30, () => fired.push('c'));
    clock.setTimer(10, () => fired.push('a'));
    clock.setTimer(10, () => fired.push('b'));
    const cancelled = clock.setTimer(5, () => fired.push('x'));
    cancelled.cancel();
    expect(clock.now()).toBe(1000);
    expect(clock.nextTimerAt()).toBe(1010);
    expect(clock.advanceToNext()).toBe(true);
    expect(fired).toEqual(['a', 'b']);
    expect(clock.now()).toBe(1010);
    clock.advance(100);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(clock.now()).toBe(1110);
    expect(clock.advanceToNext()).toBe(false);
  });

  it('never leaves numeric time: a NaN delay fires at once, an advance to NaN is refused', () => {
    const clock = new SimulatedClock(1000);
    const fired: number[] = [];
    clock.setTimer(Number.NaN, () => fired.push(clock.now()));
    clock.setTimer(10, () => fired.push(clock.now()));
    expect(clock.nextTimerAt()).toBe(1000);
    clock.advance(10);
    expect(fired).toEqual([1000, 1010]);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.advanceTo(Number.NaN)).toThrow(RangeError);
    expect(clock.now()).toBe(1010);
  });

  it('fires a timer set by a firing timer when it falls due in the same advance', () => {
    const clock = new SimulatedClock(0);
    const fired: number[] = [];
    clock.setTimer(1, () => {
      fired.push(clock.now());
      clock.setTimer(1, () => fired.push(clock.now()));
    });
    clock.advance(5);
    expect(fired).toEqual([1, 2]);
  });
});

describe('exponential backoff', () => {
  it('grows by 1.5 from 500 ms up to 60 s and starts over on reset', () => {
    const b = new ExponentialBackoff();
    const seq = Array.from({ length: 14 }, () => b.next());
    expect(seq.slice(0, 4)).toEqual([500, 750, 1125, 1688]);
    expect(seq.at(-1)).toBe(60_000);
    expect(b.attempts).toBe(14);
    b.reset();
    expect(b.next()).toBe(500);
  });
});

describe('the real clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits a delay longer than setTimeout takes (24.8 days) in full, where Node fired it after 1 ms', () => {
    vi.useFakeTimers({ now: 0 });
    const clock = new RealClock();
    const fired: number[] = [];
    const thirtyDays = 30 * 24 * 3600 * 1000;
    clock.setTimer(thirtyDays, () => fired.push(Date.now()));
    vi.advanceTimersByTime(1000);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(thirtyDays - 1001);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([thirtyDays]);
  });

  it('cancels a long delay at any of its steps', () => {
    vi.useFakeTimers({ now: 0 });
    const clock = new RealClock();
    let fired = false;
    const timer = clock.setTimer(60 * 24 * 3600 * 1000, () => (fired = true));
    vi.advanceTimersByTime(2 ** 31);
    timer.cancel();
    vi.runAllTimers();
    expect(fired).toBe(false);
  });
});
