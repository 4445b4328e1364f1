/**
 * A transform with input finalizers adds its finalizer to every input on its first pass, and that
 * write wakes it again. The input is then what it transformed plus that finalizer: the pass
 * leaves it alone. Another controller's finalizer on a running input does not even wake it. Any
 * other change since (here by another writer) is still transformed.
 */
import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  createTransformController,
  SimulatedClock,
} from '../../src/index.js';
import { A, B, type ASpec, type BSpec } from './harness.js';

const NAME = 'TransformAB';

function setup() {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const runtime = createRuntime(state, { clock });
  const calls: string[] = [];
  const controller = createTransformController<ASpec, BSpec>(
    {
      name: NAME,
      input: A,
      output: B,
      mapMetadata: (a) => B.create(a.metadata.id),
      transform: (_ctx, a, b) => {
        calls.push(a.metadata.id);
        b.spec.out = a.spec.str;
      },
    },
    { inputFinalizers: true },
  );
  return { state, runtime, calls, controller };
}

describe('a transform with input finalizers', () => {
  it('transforms each input once when only its own finalizer was added since', async () => {
    const { state, runtime, calls, controller } = setup();
    for (const id of ['a', 'b', 'c']) await state.create(A.create(id, { str: id, int: 0 }));
    await runtime.register(controller);
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    expect(calls.sort()).toEqual(['a', 'b', 'c']);
    for (const id of ['a', 'b', 'c']) {
      expect((await state.get(A.pointer(id))).metadata.finalizers).toEqual([NAME]);
      expect((await state.get<BSpec>(B.pointer(id))).spec.out).toBe(id);
    }
    await runtime.stop();
  });

  it('still transforms an input another writer changed after the finalizer was added', async () => {
    const { state, runtime, calls, controller } = setup();
    await state.create(A.create('a', { str: 'one', int: 0 }));
    // Another writer changes the input as soon as the transform's finalizer is on it.
    const watch = new AbortController();
    let changed = false;
    await state.watch(
      A.pointer('a'),
      (event) => {
        if (changed || event.type !== 'updated') return;
        if (!event.resource.metadata.finalizers.includes(NAME)) return;
        changed = true;
        void state.updateWithConflicts<ASpec>(A.pointer('a'), (draft) => {
          draft.spec.str = 'two';
        });
      },
      { signal: watch.signal },
    );
    await runtime.register(controller);
    expect((await runtime.converge()).converged).toBe(true);
    watch.abort();
    expect(changed).toBe(true);
    expect(calls).toEqual(['a', 'a']);
    expect((await state.get<BSpec>(B.pointer('a'))).spec.out).toBe('two');
    await runtime.stop();
  });

  it('is not woken when another controller adds or removes its finalizer on a running input', async () => {
    const { state, runtime, calls, controller } = setup();
    await state.create(A.create('a', { str: 'one', int: 0 }));
    await runtime.register(controller);
    await runtime.converge();
    await state.addFinalizer(A.pointer('a'), 'someone-else');
    const added = await runtime.converge();
    await state.removeFinalizer(A.pointer('a'), 'someone-else');
    const removed = await runtime.converge();

    expect(added.reconciles).toBe(0);
    expect(removed.reconciles).toBe(0);
    expect(calls).toEqual(['a']);
    await runtime.stop();
  });

  it('puts its finalizer back when someone removed it', async () => {
    const { state, runtime, controller } = setup();
    await state.create(A.create('a', { str: 'one', int: 0 }));
    await runtime.register(controller);
    await runtime.converge();
    await state.removeFinalizer(A.pointer('a'), NAME);
    const report = await runtime.converge();

    expect(report.reconciles).toBe(1);
    expect((await state.get(A.pointer('a'))).metadata.finalizers).toEqual([NAME]);
    await runtime.stop();
  });
});
