import { afterEach, describe, expect, it } from 'vitest';
import { ALL_NAMESPACES, type ReconcileEvent } from '../../../src/index.js';
import { createHarness, Int, Str, type Harness } from './test-controllers.js';
import {
  InputChangeCollector,
  MAX_COLLECTED_CHANGES,
} from '../../../src/engine/runtime/input-changes.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** A controller on Ints (weak) and Strs (destroyReady) that keeps what each pass was told. */
async function watching(fail?: () => boolean): Promise<ReconcileEvent[]> {
  const events: ReconcileEvent[] = [];
  await h.runtime.register({
    name: 'Watcher',
    inputs: [
      { namespace: Int.namespace, type: Int.type, kind: 'weak' },
      { namespace: Str.namespace, type: Str.type, kind: 'destroyReady' },
    ],
    outputs: [],
    async run(rt) {
      for await (const event of rt.events()) {
        events.push(event);
        if (fail?.()) throw new Error('boom');
        rt.resetRestartBackoff();
      }
    },
  });
  return events;
}

const ints = (event: ReconcileEvent | undefined) => [...(event?.changes?.ids(Int) ?? [])].sort();
const strs = (event: ReconcileEvent | undefined) => [...(event?.changes?.ids(Str) ?? [])].sort();

describe('the input changes a whole-world controller is told', () => {
  it('are absent on the first pass, which has nothing to count from', async () => {
    h = createHarness();
    await h.state.create(Int.create('before', { value: 1 }));
    const events = await watching();
    await h.runtime.converge();
    expect(events).toHaveLength(1);
    expect(events[0]?.changes).toBeUndefined();
  });

  it('name each input resource with events since the pass before once, however many it had', async () => {
    h = createHarness();
    const events = await watching();
    await h.runtime.converge();
    await h.state.create(Int.create('a', { value: 1 }));
    await h.state.create(Int.create('b', { value: 1 }));
    for (let v = 2; v < 5; v++) {
      await h.state.modify(Int.create('a'), (d) => {
        d.spec.value = v;
      });
    }
    await h.runtime.converge();
    expect(events).toHaveLength(2);
    expect(ints(events[1])).toEqual(['a', 'b']);
    expect(events[1]?.changes?.size).toBe(2);
    // The next pass counts from the one before: only what changed since.
    await h.state.destroy(Int.pointer('b'));
    await h.runtime.converge();
    expect(ints(events[2])).toEqual(['b']);
  });

  it('include events of a destroyReady input that did not wake the controller', async () => {
    h = createHarness();
    const events = await watching();
    await h.runtime.converge();
    // Not destroy-ready: no wakeup, but a change all the same.
    await h.state.create(Str.create('s', { value: 'x' }));
    await h.runtime.converge();
    expect(events).toHaveLength(1);
    await h.state.create(Int.create('a', { value: 1 }));
    await h.runtime.converge();
    expect(events).toHaveLength(2);
    expect(ints(events[1])).toEqual(['a']);
    expect(strs(events[1])).toEqual(['s']);
  });

  it('of an input of every namespace (ALL_NAMESPACES) name the changes of each namespace', async () => {
    h = createHarness();
    const events: ReconcileEvent[] = [];
    const everyInt = { namespace: ALL_NAMESPACES, type: Int.type };
    await h.runtime.register({
      name: 'Everywhere',
      inputs: [{ ...everyInt, kind: 'weak' }],
      outputs: [],
      async run(rt) {
        for await (const event of rt.events()) events.push(event);
      },
    });
    await h.runtime.converge();
    await h.state.create(Int.create('a', { value: 1 }, { namespace: 'team-a' }));
    await h.state.create(Int.create('b', { value: 1 }, { namespace: 'team-b' }));
    await h.state.create(Int.create('a', { value: 1 }, { namespace: 'team-b' }));
    await h.runtime.converge();
    const changes = events.at(-1)?.changes;
    expect(changes?.size).toBe(3);
    expect([...(changes?.ids(everyInt) ?? [])].sort()).toEqual(['a', 'b']);
    expect(changes?.pointers(everyInt)).toEqual([
      { namespace: 'team-a', type: Int.type, id: 'a' },
      { namespace: 'team-b', type: Int.type, id: 'b' },
      { namespace: 'team-b', type: Int.type, id: 'a' },
    ]);
    // A kind of one namespace still names that namespace's alone.
    expect(changes?.ids({ namespace: 'team-a', type: Int.type })).toEqual(['a']);
    expect(changes?.pointers({ namespace: 'team-c', type: Int.type })).toEqual([]);
  });

  it('start over after a restart: its first pass is told nothing', async () => {
    h = createHarness();
    let failures = 1;
    const events = await watching(() => events.length === 2 && failures-- > 0);
    await h.runtime.converge();
    await h.state.create(Int.create('a', { value: 1 }));
    // The second pass fails; the run restarts after its backoff, with no changes to tell.
    await h.runtime.converge();
    expect(events.map((e) => e.reason)).toEqual(['start', 'input', 'restart']);
    expect(ints(events[1])).toEqual(['a']);
    expect(events[2]?.changes).toBeUndefined();
  });
});

describe('InputChangeCollector', () => {
  const pointer = (id: string) => ({ namespace: Int.namespace, type: Int.type, id });

  it('keeps nothing before the first pass starts it (that pass looks at everything)', () => {
    const collector = new InputChangeCollector();
    for (let i = 0; i < 1_000; i++) collector.add(pointer(`r${i}`));
    expect(collector.take()?.size).toBe(0);
    collector.start();
    collector.add(pointer('after'));
    collector.add(pointer('after'));
    const changes = collector.take();
    expect(changes?.size).toBe(1);
    expect(changes?.ids(Int)).toEqual(['after']);
  });

  it('tells a pass nothing (a full pass) once more changed than it keeps, then collects again', () => {
    const collector = new InputChangeCollector();
    collector.start();
    for (let i = 0; i <= MAX_COLLECTED_CHANGES; i++) collector.add(pointer(`r${i}`));
    expect(collector.take()).toBeUndefined();
    collector.add(pointer('next'));
    expect(collector.take()?.ids(Int)).toEqual(['next']);
  });
});
