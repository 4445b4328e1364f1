import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/index.js';
import { QueueTiming, type QueueMetricsSink } from '../../../src/engine/runtime/queue-metrics.js';
import { WorkQueue } from '../../../src/engine/runtime/work-queue.js';

/** What a queue told its sink, in order: `add`, `take`, `done` (times left out). */
function recorded(): { sink: QueueMetricsSink; events: string[] } {
  const events: string[] = [];
  return {
    events,
    sink: {
      added: (controller) => events.push(`add ${controller}`),
      taken: (controller, seconds) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        events.push(`take ${controller}`);
      },
      done: (controller, seconds) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        events.push(`done ${controller}`);
      },
    },
  };
}

describe("a work queue's timing (cosi run's workqueue_* metrics)", () => {
  it('counts an add of a key not waiting, as client-go does: one already waiting is no add', () => {
    const { sink, events } = recorded();
    const timing = new QueueTiming('C', sink);
    const q = new WorkQueue<number>(new SimulatedClock(), () => undefined, timing);
    q.add('a', 1);
    q.add('a', 2);
    q.add('b', 1);
    expect(timing.depth).toBe(2);
    const a = q.takeEntry();
    expect(timing.depth).toBe(1);
    expect(timing.underway().active).toBe(1);
    q.doneEntry(a!);
    expect(timing.underway()).toEqual({ active: 0, unfinishedSeconds: 0, longestSeconds: 0 });
    expect(events).toEqual(['add C', 'add C', 'take C', 'done C']);
  });

  it('counts a key added while in flight once it is queued again, and a delayed one when it is due', () => {
    const { sink, events } = recorded();
    const clock = new SimulatedClock();
    const timing = new QueueTiming('C', sink);
    const q = new WorkQueue<number>(clock, () => undefined, timing);
    q.add('a', 1);
    const taken = q.takeEntry()!;
    q.add('a', 2);
    expect(events).toEqual(['add C', 'take C']);
    q.doneEntry(taken);
    expect(events).toEqual(['add C', 'take C', 'done C', 'add C']);
    q.doneEntry(q.takeEntry()!);
    q.add('b', 1, 1_000);
    expect(timing.depth).toBe(0);
    clock.advance(1_000);
    expect(timing.depth).toBe(1);
    expect(events.slice(4)).toEqual(['take C', 'done C', 'add C']);
  });

  it('forgets what waited when the queue is cleared (the controller stopped)', () => {
    const { sink } = recorded();
    const timing = new QueueTiming('C', sink);
    const q = new WorkQueue<number>(new SimulatedClock(), () => undefined, timing);
    q.add('a', 1);
    q.clear();
    expect(timing.depth).toBe(0);
  });
});
