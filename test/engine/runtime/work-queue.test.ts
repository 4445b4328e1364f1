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

  it("hands out a key's one record when taken, the same for its whole stay", () => {
    const q = new WorkQueue<string>(new SimulatedClock(), () => undefined);
    q.add('k', 'first');
    const first = q.takeEntry();
    expect(first).toMatchObject({ key: 'k', item: 'first' });
    q.add('k', 'second');
    // Done with the record taken (no lookup of its key): the add made meanwhile is queued now.
    q.doneEntry(first!);
    // Queued again while in flight: the same record, no new object per take.
    const second = q.takeEntry();
    expect(second).toBe(first);
    expect(second?.item).toBe('second');
    q.doneEntry(second!);
    expect(q.size).toBe(0);
    expect(q.takeEntry()).toBeUndefined();
    q.add('k', 'third');
    expect(q.takeEntry()).not.toBe(first);
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

describe('the work queue, one record per key', () => {
  it('hands ready keys out in the order they became ready, each once', () => {
    const clock = new SimulatedClock(0);
    const q = new WorkQueue<string>(clock, () => undefined);
    q.add('c', 'c', 50);
    q.add('a', 'a');
    q.add('b', 'b');
    q.add('a', 'a2');
    q.add('d', 'd', 100);
    // An earlier release wins over a later one; a later one leaves the earlier in place.
    q.add('d', 'd2', 10);
    q.add('c', 'c2', 500);
    expect(q.delayedItems()).toEqual(['c2', 'd2']);
    expect(q.releaseAt('d')).toBe(10);
    expect(q.releaseAt('c')).toBe(50);
    clock.advance(100);
    const order: string[] = [];
    for (let next = q.take(); next; next = q.take()) order.push(next.item);
    expect(order).toEqual(['a2', 'b', 'd2', 'c2']);
    expect(q.size).toBe(0);
  });

  it('keeps a key added while in flight, with its latest item and shortest delay, until done', () => {
    const clock = new SimulatedClock(0);
    const q = new WorkQueue<string>(clock, () => undefined);
    q.add('k', 'first');
    expect(q.take()?.item).toBe('first');
    expect(q.size).toBe(0);
    q.add('k', 'second', 300);
    q.add('k', 'third', 200);
    q.add('k', 'fourth', 400);
    expect(q.take()).toBeUndefined();
    expect(q.size).toBe(0);
    q.done('k');
    expect(q.size).toBe(1);
    expect(q.releaseAt('k')).toBe(200);
    clock.advance(200);
    expect(q.take()?.item).toBe('fourth');
    q.done('k');
    q.add('k', 'fifth');
    expect(q.take()?.item).toBe('fifth');
  });

  it('queues a key added during a drain behind the keys already ready', () => {
    const q = new WorkQueue<string>(new SimulatedClock(), () => undefined);
    q.add('a', 'a');
    q.add('b', 'b');
    const order: string[] = [];
    for (let next = q.take(); next; next = q.take()) {
      order.push(next.item);
      // Re-added while in flight (runs again after done), and a new key.
      if (next.item === 'a') {
        q.add('a', 'a again');
        q.add('c', 'c');
      }
      q.done(next.key);
    }
    expect(order).toEqual(['a', 'b', 'c', 'a again']);
  });

  it('forgets queued keys on clear and cancels their timers, leaving keys in flight to end', () => {
    const clock = new SimulatedClock(0);
    let ready = 0;
    const q = new WorkQueue<string>(clock, () => ready++);
    q.add('a', 'a');
    q.add('b', 'b', 100);
    q.add('c', 'c');
    expect(q.take()?.key).toBe('a');
    q.clear();
    expect(q.size).toBe(0);
    expect(q.readyCount).toBe(0);
    clock.advance(100);
    expect(ready).toBe(0);
    expect(q.take()).toBeUndefined();
    q.done('a');
    q.add('a', 'again');
    expect(q.take()?.item).toBe('again');
  });
});
