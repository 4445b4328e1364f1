import { afterEach, describe, expect, it } from 'vitest';
import { labelEqual, labelQuery, listAll, type Controller } from '../../../src/index.js';
import { createHarness, Int, Str, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('inputs', () => {
  it('sums only the ints whose label matches, and follows label changes', async () => {
    h = createHarness();
    const summer: Controller = {
      name: 'SumController',
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          const ints = await listAll(rt, Int, {
            labelQueries: [labelQuery(labelEqual('sum', 'yes'))],
          });
          const total = ints.map((i) => i.spec.value).reduce((a, b) => a + b, 0);
          await rt.modify(Str.create('sum'), (d) => {
            d.spec.value = String(total);
          });
        }
      },
    };
    await h.runtime.register(summer);
    await h.state.create(Int.create('a', { value: 1 }, { labels: { sum: 'yes' } }));
    await h.state.create(Int.create('b', { value: 10 }, { labels: { sum: 'no' } }));
    await h.state.create(Int.create('c', { value: 100 }, { labels: { sum: 'yes' } }));
    await h.runtime.converge();
    expect((await h.state.get<{ value: string }>(Str.pointer('sum'))).spec.value).toBe('101');
    await h.state.modify(Int.create('b'), (d) => {
      d.metadata.labels.sum = 'yes';
    });
    await h.runtime.converge();
    expect((await h.state.get<{ value: string }>(Str.pointer('sum'))).spec.value).toBe('111');
  });

  it('follows inputs changed at run time with updateInputs', async () => {
    h = createHarness();
    // Watches one int at a time: the one named by the `target` str (an input of its own).
    const follower: Controller = {
      name: 'Follower',
      inputs: [{ namespace: 'config', type: Str.type, id: 'target', kind: 'weak' }],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          const target = await rt.find<{ value: string }>({
            namespace: 'config',
            type: Str.type,
            id: 'target',
          });
          if (!target) continue;
          rt.updateInputs([
            { namespace: 'config', type: Str.type, id: 'target', kind: 'weak' },
            { namespace: Int.namespace, type: Int.type, id: target.spec.value, kind: 'weak' },
          ]);
          const int = await rt.find<{ value: number }>(Int.pointer(target.spec.value));
          await rt.modify(Str.create('followed'), (d) => {
            d.spec.value = `${target.spec.value}=${int?.spec.value ?? 'none'}`;
          });
        }
      },
    };
    await h.runtime.register(follower);
    await h.state.create(Int.create('x', { value: 1 }));
    await h.state.create(Int.create('y', { value: 2 }));
    await h.state.create(Str.create('target', { value: 'x' }, { namespace: 'config' }));
    await h.runtime.converge();
    expect((await h.state.get<{ value: string }>(Str.pointer('followed'))).spec.value).toBe('x=1');

    // A change to the watched int wakes it; a change to another int does not.
    await h.state.modify(Int.create('x'), (d) => {
      d.spec.value = 5;
    });
    const before = h.runtime.metrics('Follower')!.wakeups;
    await h.state.modify(Int.create('y'), (d) => {
      d.spec.value = 6;
    });
    await h.runtime.converge();
    expect(h.runtime.metrics('Follower')!.wakeups).toBe(before + 1);
    expect((await h.state.get<{ value: string }>(Str.pointer('followed'))).spec.value).toBe('x=5');

    await h.state.modify(Str.create('target', undefined, { namespace: 'config' }), (d) => {
      d.spec.value = 'y';
    });
    await h.runtime.converge();
    expect((await h.state.get<{ value: string }>(Str.pointer('followed'))).spec.value).toBe('y=6');
    expect(h.runtime.dependencyGraph().edges.filter((e) => e.type === Int.type)).toEqual([
      { controller: 'Follower', namespace: 'ints', type: Int.type, id: 'y', kind: 'weak' },
    ]);
  });

  it('refuses inputs it may not have at updateInputs, naming the call, not a registration', async () => {
    h = createHarness();
    const caught: unknown[] = [];
    await h.runtime.register({
      name: 'Updater',
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
      outputs: [],
      async run(rt) {
        for await (const _ of rt.events()) {
          try {
            rt.updateInputs([
              { namespace: Int.namespace, type: Int.type, kind: 'weak' },
              { namespace: Int.namespace, type: Int.type, kind: 'strong' },
            ]);
          } catch (error) {
            caught.push(error);
          }
          return;
        }
      },
    });
    await h.runtime.converge();
    expect(caught[0]).toMatchObject({ code: 'registration' });
    const message = (caught[0] as Error).message;
    expect(message).toMatch(/^controller "Updater" cannot update its inputs:\n {2}- /);
    expect(message).toContain('declares input ints/Ints.test.cosi.dev twice');
    expect(message).not.toContain('register');
  });

  it('coalesces a burst of input events into one reconcile', async () => {
    h = createHarness();
    let passes = 0;
    await h.runtime.register({
      name: 'Counter',
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
      outputs: [],
      async run(rt) {
        for await (const _ of rt.events()) passes++;
      },
    });
    await h.runtime.converge();
    expect(passes).toBe(1);
    for (let i = 0; i < 50; i++) await h.state.create(Int.create(`i${i}`));
    await h.runtime.converge();
    expect(passes).toBe(2);
  });

  it('wakes a destroyReady input only for resources tearing down without finalizers', async () => {
    h = createHarness();
    let passes = 0;
    await h.runtime.register({
      name: 'Reaper',
      inputs: [{ namespace: Str.namespace, type: Str.type, kind: 'destroyReady' }],
      outputs: [],
      async run(rt) {
        for await (const _ of rt.events()) passes++;
      },
    });
    await h.runtime.converge();
    await h.state.create(Str.create('s', undefined, { finalizers: ['hold'] }));
    await h.runtime.converge();
    await h.state.teardown(Str.pointer('s'));
    await h.runtime.converge();
    expect(passes).toBe(1);
    await h.state.removeFinalizer(Str.pointer('s'), 'hold');
    await h.runtime.converge();
    expect(passes).toBe(2);
  });
});
