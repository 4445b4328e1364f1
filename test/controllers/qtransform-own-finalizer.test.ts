/**
 * A queue transform does not reconcile an input again for the finalizer it put on it itself
 * (`skipOwnFinalizerRequeue`), nor for another controller's finalizer on a running input
 * (`skipFinalizerOnlyRequeue`), and those skips lose no other change of the input.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQTransformController, type QController } from '../../src/index.js';
import { A, B, createHarness, type ASpec, type BSpec, type Harness } from './harness.js';

const NAME = 'AToB';

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.runtime.stop();
});

/** A -> B, recording each transform as `<id>:<str>`; `during` runs inside the first one. */
function controller(log: string[], during?: (id: string) => Promise<void>): QController {
  const pending = new Set<string>();
  return createQTransformController<ASpec, BSpec>({
    name: NAME,
    input: A,
    output: B,
    mapMetadata: (a) => B.create(a.metadata.id),
    unmapMetadata: (b) => A.pointer(b.metadata.id),
    transform: async (_ctx, a, b) => {
      log.push(`${a.metadata.id}:${a.spec.str}`);
      if (during && !pending.has(a.metadata.id)) {
        pending.add(a.metadata.id);
        await during(a.metadata.id);
      }
      b.spec.out = a.spec.str;
    },
  });
}

describe('a queue transform and its own finalizer write', () => {
  it('reconciles each input once when nothing else changes it', async () => {
    const log: string[] = [];
    await h.runtime.register(controller(log));
    await h.runtime.converge();
    for (const id of ['x', 'y', 'z']) await h.state.create(A.create(id, { str: id, int: 1 }));
    const report = await h.runtime.converge();

    expect(report.converged).toBe(true);
    expect(log).toEqual(['x:x', 'y:y', 'z:z']);
    for (const id of ['x', 'y', 'z']) {
      expect((await h.state.get(A.pointer(id))).metadata.finalizers).toEqual([NAME]);
      expect((await h.state.get<BSpec>(B.pointer(id))).spec.out).toBe(id);
    }
  });

  it('still reconciles a change another writer made between the finalizer write and the next reconcile', async () => {
    const log: string[] = [];
    // Right after the controller's finalizer write (the transform runs after it), someone else
    // changes the input: that change must be reconciled, skip or no skip.
    await h.runtime.register(
      controller(log, async (id) => {
        expect((await h.state.get(A.pointer(id))).metadata.finalizers).toEqual([NAME]);
        await h.state.updateWithConflicts<ASpec>(A.pointer(id), (draft) => {
          draft.spec.str = `${id}-changed`;
        });
      }),
    );
    await h.runtime.converge();
    await h.state.create(A.create('x', { str: 'x', int: 1 }));
    const report = await h.runtime.converge();

    expect(report.converged).toBe(true);
    expect(log).toEqual(['x:x', 'x:x-changed']);
    expect((await h.state.get<BSpec>(B.pointer('x'))).spec.out).toBe('x-changed');
  });

  it('does not reconcile a running input for a finalizer another controller adds after its own', async () => {
    const log: string[] = [];
    await h.runtime.register(
      controller(log, async (id) => {
        await h.state.addFinalizer(A.pointer(id), 'someone-else');
      }),
    );
    await h.runtime.converge();
    await h.state.create(A.create('x', { str: 'x', int: 1 }));
    const report = await h.runtime.converge();

    expect(report.converged).toBe(true);
    expect(log).toEqual(['x:x']);
    expect((await h.state.get(A.pointer('x'))).metadata.finalizers).toEqual([NAME, 'someone-else']);
  });

  it('does not reconcile a converged input when another controller adds or removes its finalizer', async () => {
    const log: string[] = [];
    await h.runtime.register(controller(log));
    await h.state.create(A.create('x', { str: 'x', int: 1 }));
    await h.runtime.converge();
    await h.state.addFinalizer(A.pointer('x'), 'someone-else');
    const added = await h.runtime.converge();
    await h.state.removeFinalizer(A.pointer('x'), 'someone-else');
    const removed = await h.runtime.converge();

    expect(added.reconciles).toBe(0);
    expect(removed.reconciles).toBe(0);
    expect(log).toEqual(['x:x']);
  });

  it('reconciles an input whose own finalizer someone removed, and puts it back', async () => {
    const log: string[] = [];
    await h.runtime.register(controller(log));
    await h.state.create(A.create('x', { str: 'x', int: 1 }));
    await h.runtime.converge();
    await h.state.removeFinalizer(A.pointer('x'), NAME);
    const report = await h.runtime.converge();

    expect(report.reconciles).toBe(1);
    expect(log).toEqual(['x:x', 'x:x']);
    expect((await h.state.get(A.pointer('x'))).metadata.finalizers).toEqual([NAME]);
  });

  it('reconciles an input whose labels change along with its finalizers', async () => {
    const log: string[] = [];
    await h.runtime.register(controller(log));
    await h.state.create(A.create('x', { str: 'x', int: 1 }));
    await h.runtime.converge();
    await h.state.updateWithConflicts(A.pointer('x'), (draft) => {
      draft.metadata.finalizers.push('someone-else');
      draft.metadata.labels['tier'] = 'web';
    });
    const report = await h.runtime.converge();

    expect(report.reconciles).toBe(1);
    expect(log).toEqual(['x:x', 'x:x']);
  });

  it('reconciles each input once with several finalizer writes awaiting their events at once', async () => {
    const log: string[] = [];
    // Four workers: their finalizer writes are all made before the first event is delivered, so
    // the notes of more than one input are held together.
    const base = controller(log);
    await h.runtime.register({ ...base, settings: { ...base.settings, concurrency: 4 } });
    await h.runtime.converge();
    for (const id of ['w', 'x', 'y', 'z']) await h.state.create(A.create(id, { str: id, int: 1 }));
    const report = await h.runtime.converge();

    expect(report.converged).toBe(true);
    expect([...log].sort()).toEqual(['w:w', 'x:x', 'y:y', 'z:z']);
  });
});
