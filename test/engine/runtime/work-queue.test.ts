import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/index.js';
import { WorkQueue } from '../../../src/engine/runtime/work-queue.js';

describe('the work queue', () => {
  it('deduplicates a key, keeping the latest item', () => {
    const q = new WorkQueue<number>(new SimulatedClock(), () => undefined);
    q.add('a', 1);
    q.add('b', 2);
    q.add('a', 3);
    expect(q.size).toBe(2);
    expect(q.take()).toEqual({ key: 'a', item: 3 });
    expect(q.take()).toEqual({ key: 'b', item: 2 });
    expect(q.take()).toBeUndefined();
  });

  it('holds a key added while in flight until it is done', () => {
    const q = new WorkQueue<string>(new SimulatedClock(), () => undefined);
    q.add('k', 'first');
    expect(q.take()?.item).toBe('first');
    q.add('k', 'second');
    expect(q.take()).toBeUndefined();
    q.done('k');
    expect(q.take()?.item).toBe('second');
  });

  it('releases delayed keys on the clock and tells when they are ready', () => {
    const clock = new SimulatedClock(0);
    let ready = 0;
    const q = new WorkQueue<string>(clock, () => ready++);
    q.add('late', 'l', 100);
    q.add('later', 'x', 200);
    expect(q.readyCount).toBe(0);
    expect(q.take()).toBeUndefined();
    clock.advance(100);
    expect(ready).toBe(1);
    expect(q.take()?.key).toBe('late');
    q.add('later', 'y', 0);
    expect(q.take()).toEqual({ key: 'later', item: 'y' });
  });
});
