/**
 * A queue controller's workers take one ready key after another until none is left: keys queued
 * while they drain the queue, or again while they run, are not lost, and an item's key is let go
 * only once nothing refers to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type Pointer,
  type QController,
  type QRuntime,
  type State,
} from '../../../src/index.js';
import { createHarness, Int, Sentence, Str, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** Runs `fn` after `n` turns of the microtask queue. */
function afterTicks(n: number, fn: () => void): void {
  if (n === 0) fn();
  else queueMicrotask(() => afterTicks(n - 1, fn));
}

function ints(
  reconcile: (rt: QRuntime, p: Pointer) => Promise<void>,
  settings: Partial<QController['settings']> = {},
): QController {
  return {
    name: 'IntsQ',
    settings: {
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      ...settings,
    },
    reconcile,
    mapInput: async () => [],
  };
}

describe('queue controller workers', () => {
  it('reconcile a key queued while they drain the queue, after the keys ahead of it', async () => {
    h = createHarness();
    for (const id of ['a', 'b', 'c']) await h.state.create(Int.create(id));
    const order: string[] = [];
    await h.runtime.register(
      ints(async (rt, p) => {
        order.push(p.id);
        // A new primary appears while the first of the batch runs.
        if (p.id === 'a') await h.state.create(Int.create('d'));
        await rt.find(p);
      }),
    );
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reconcile a key changed while it runs once more, after the keys already queued', async () => {
    h = createHarness();
    for (const id of ['a', 'b']) await h.state.create(Int.create(id, { value: 1 }));
    const order: string[] = [];
    await h.runtime.register(
      ints(async (rt, p) => {
        const int = await rt.find<{ value: number }>(p);
        order.push(`${p.id}${int?.spec.value}`);
        if (p.id === 'a' && int?.spec.value === 1) {
          await h.state.modify(Int.create('a'), (d) => {
            d.spec.value = 2;
          });
        }
      }),
    );
    await h.runtime.converge();
    expect(order).toEqual(['a1', 'b1', 'a2']);
  });

  it('start again for a key queued after they ran dry, with every worker slot free', async () => {
    h = createHarness();
    let running = 0;
    let peak = 0;
    await h.runtime.register(
      ints(
        async (rt, p) => {
          peak = Math.max(peak, ++running);
          for (let k = 0; k < 3; k++) await rt.find(p);
          running--;
        },
        { concurrency: 2 },
      ),
    );
    await h.runtime.converge();
    for (const id of ['a', 'b', 'c']) await h.state.create(Int.create(id));
    const report = await h.runtime.converge();
    expect(report.reconciles).toBe(3);
    expect(peak).toBe(2);
    expect(h.runtime.status('IntsQ')?.condition).toBe('idle');
  });

  it('skip the echo of their own finalizer write even when it arrives after the reconcile ended', async () => {
    const clock = new SimulatedClock();
    const inner = createInMemoryState({ now: () => clock.now() });
    // A state whose watches deliver a little late (as a remote store's do): the echo of the
    // finalizer write comes only after the reconcile that made it is over.
    const late: Partial<State> = {
      watchKind: (kind, listener, options) =>
        inner.watchKind(kind, (event) => afterTicks(50, () => listener(event)), options),
    };
    const state = new Proxy(inner, {
      get(target, prop) {
        const own = (late as Record<PropertyKey, unknown>)[prop];
        if (own !== undefined) return own;
        const value: unknown = Reflect.get(target, prop);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    h = { state: inner, clock, runtime: createRuntime(state, { clock }) };
    await inner.create(Int.create('a'));
    const calls: string[] = [];
    await h.runtime.register(
      ints(
        async (rt, p) => {
          const int = await rt.find(p);
          calls.push(`${p.id}@${int?.metadata.version}`);
          if (int && !int.metadata.finalizers.includes('IntsQ')) await rt.addFinalizer(p, 'IntsQ');
          calls.push(`${p.id} done`);
        },
        { skipOwnFinalizerRequeue: true },
      ),
    );
    await h.runtime.converge();
    expect(calls).toEqual(['a@1', 'a done']);
    expect((await inner.get(Int.pointer('a'))).metadata.finalizers).toEqual(['IntsQ']);
    // A later change of the same item is reconciled as always.
    await inner.modify(Int.create('a'), (d) => {
      d.spec.value = 5;
    });
    await h.runtime.converge();
    expect(calls).toEqual(['a@1', 'a done', 'a@3', 'a done']);
  });

  it('tell apart items of the same id of two primary kinds and a mapped one', async () => {
    h = createHarness();
    const seen: string[] = [];
    await h.runtime.register({
      name: 'TwoPrimaries',
      settings: {
        inputs: [
          { namespace: Int.namespace, type: Int.type, kind: 'primary' },
          { namespace: Sentence.namespace, type: Sentence.type, kind: 'primary' },
          { namespace: Str.namespace, type: Str.type, kind: 'mapped' },
        ],
        outputs: [],
      },
      reconcile: async (rt, p) => {
        seen.push(`${p.type.split('.')[0]}/${p.id}`);
        await rt.find(p);
      },
      // A string maps to the int of its id.
      mapInput: async (_rt, md) => [Int.pointer(md.id)],
    });
    await h.runtime.converge();
    await h.state.create(Int.create('x'));
    await h.state.create(Sentence.create('x'));
    await h.state.create(Int.create('y'));
    await h.state.create(Str.create('y'));
    await h.runtime.converge();
    // Each its own key: the int y runs for its own change, then again for its string's mapping
    // (a mapping sharing the int's key would have replaced that reconcile in the queue).
    expect(seen).toEqual(['Ints/x', 'Sentences/x', 'Ints/y', 'Ints/y']);
    expect(h.runtime.metrics('TwoPrimaries')?.mappedOut).toBe(1);
  });

  it('keep the attempts of an item that fails while it waits for its retry', async () => {
    h = createHarness();
    await h.state.create(Int.create('a'));
    let attempts = 0;
    await h.runtime.register(
      ints(async () => {
        attempts++;
        if (attempts < 3) throw new Error(`attempt ${attempts}`);
      }),
    );
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(attempts).toBe(3);
    expect(report.controllers[0]?.errors).toBe(2);
    expect(h.runtime.status('IntsQ')?.condition).toBe('idle');
  });
});
