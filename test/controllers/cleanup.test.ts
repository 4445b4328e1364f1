import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  combine,
  createCleanupController,
  hasNoOutputs,
  labelEqual,
  labelQuery,
  removeOutputs,
  type CleanupHandler,
  type ListOptions,
  type Resource,
} from '../../src/index.js';
import { A, B, C, createHarness, ids, type ASpec, type Harness } from './harness.js';

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.runtime.stop();
});

/** Dependents of input `x` are labelled `parent: x`. */
const children = (a: Resource<ASpec>): ListOptions => ({
  labelQueries: [labelQuery(labelEqual('parent', a.metadata.id))],
});

const child = (parent: string) => ({ labels: { parent } });

const finalizersOf = async (id: string): Promise<readonly string[]> =>
  (await h.state.get(A.pointer(id))).metadata.finalizers;

async function createInputs(...idList: string[]): Promise<void> {
  for (const id of idList) await h.state.create(A.create(id));
}

describe('cleanup controller', () => {
  it('puts its finalizer on every running input', async () => {
    await h.runtime.register(
      createCleanupController({ name: 'Cleanup', input: A, handler: hasNoOutputs(B, children) }),
    );
    await createInputs('1', '2');
    await h.runtime.converge();
    expect([await finalizersOf('1'), await finalizersOf('2')]).toEqual([['Cleanup'], ['Cleanup']]);
  });

  it('releases a tearing-down input once its handler succeeds', async () => {
    const seen: string[] = [];
    const handler: CleanupHandler<ASpec> = {
      inputs: [],
      outputs: [],
      finalizerRemoval: async (_ctx, a) => {
        seen.push(a.metadata.id);
      },
    };
    await h.runtime.register(createCleanupController({ name: 'Cleanup', input: A, handler }));
    await createInputs('1');
    await h.runtime.converge();
    await h.state.teardown(A.pointer('1'));
    await h.runtime.converge();
    expect(seen).toEqual(['1']);
    expect(await finalizersOf('1')).toEqual([]);
  });

  it('retries a failing handler with backoff and keeps the input until it succeeds', async () => {
    let calls = 0;
    const handler: CleanupHandler<ASpec> = {
      inputs: [],
      outputs: [],
      finalizerRemoval: async () => {
        if (++calls < 3) throw new Error('not yet');
      },
    };
    await h.runtime.register(createCleanupController({ name: 'Cleanup', input: A, handler }));
    await createInputs('1');
    await h.runtime.converge();
    await h.state.teardown(A.pointer('1'));
    const report = await h.runtime.converge();
    expect(report.errors).toBe(2);
    expect(report.elapsed).toBe(1250);
    expect(await finalizersOf('1')).toEqual([]);
  });

  describe('hasNoOutputs', () => {
    it('holds a tearing-down input until none of its dependents exist', async () => {
      await h.runtime.register(
        createCleanupController({ name: 'Cleanup', input: A, handler: hasNoOutputs(B, children) }),
      );
      await createInputs('1', '2');
      await h.state.create(B.create('b1', undefined, child('1')));
      await h.state.create(B.create('b2', undefined, child('1')));
      await h.state.create(B.create('b3', undefined, child('2')));
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      const waiting = await h.runtime.converge();
      expect(waiting.errors).toBe(0);
      expect(await finalizersOf('1')).toEqual(['Cleanup']);

      await h.state.destroy(B.pointer('b1'));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual(['Cleanup']);

      await h.state.destroy(B.pointer('b2'));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual([]);
      expect(await finalizersOf('2')).toEqual(['Cleanup']);
    });
  });

  describe('removeOutputs', () => {
    it('tears down and destroys the dependents, then releases the input', async () => {
      await h.runtime.register(
        createCleanupController({ name: 'Cleanup', input: A, handler: removeOutputs(B, children) }),
      );
      await createInputs('1', '2');
      await h.state.create(B.create('b1', undefined, child('1')));
      await h.state.create(B.create('b2', undefined, child('2')));
      await h.state.create(B.create('unrelated'));
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual(['b2', 'unrelated']);
      expect(await finalizersOf('1')).toEqual([]);
    });

    it('waits for finalizers on a dependent before destroying it and releasing the input', async () => {
      await h.runtime.register(
        createCleanupController({ name: 'Cleanup', input: A, handler: removeOutputs(B, children) }),
      );
      await createInputs('1');
      await h.state.create(B.create('b1', undefined, { ...child('1'), finalizers: ['custom'] }));
      await h.state.create(B.create('b2', undefined, child('1')));
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual(['b1']);
      expect((await h.state.get(B.pointer('b1'))).metadata.phase).toBe('tearingDown');
      expect(await finalizersOf('1')).toEqual(['Cleanup']);

      await h.state.removeFinalizer(B.pointer('b1'), 'custom');
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual([]);
      expect(await finalizersOf('1')).toEqual([]);
    });

    it('leaves dependents owned by a controller alone unless that owner is an extra owner', async () => {
      await h.runtime.register(
        createCleanupController({
          name: 'Cleanup',
          input: A,
          handler: removeOutputs(B, children, { extraOwners: ['some-controller'] }),
        }),
      );
      await createInputs('1');
      await h.state.create(B.create('unowned', undefined, child('1')));
      await h.state.create(B.create('allowed', undefined, child('1')), {
        owner: 'some-controller',
      });
      await h.state.create(B.create('other', undefined, child('1')), {
        owner: 'user-owner',
      });
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual(['other']);
      expect(await finalizersOf('1')).toEqual([]);
    });

    it('declares the dependents a shared output and a destroyReady input', () => {
      const ctrl = createCleanupController({
        name: 'Cleanup',
        input: A,
        handler: removeOutputs(B, children),
      });
      expect(ctrl.inputs).toEqual([
        { namespace: A.namespace, type: A.type, kind: 'strong' },
        { namespace: B.namespace, type: B.type, kind: 'destroyReady' },
      ]);
      expect(ctrl.outputs).toEqual([{ type: B.type, kind: 'shared' }]);
    });
  });

  describe('combine', () => {
    it('releases the input only when every handler is satisfied', async () => {
      await h.runtime.register(
        createCleanupController({
          name: 'Cleanup',
          input: A,
          handler: combine(hasNoOutputs(B, children), hasNoOutputs(C, children)),
        }),
      );
      await createInputs('1');
      await h.state.create(B.create('b1', undefined, child('1')));
      await h.state.create(C.create('c1', undefined, child('1')));
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      await h.state.destroy(B.pointer('b1'));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual(['Cleanup']);

      await h.state.destroy(C.pointer('c1'));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual([]);
    });

    it('refuses handlers that declare one input with different kinds', () => {
      expect(() => combine(hasNoOutputs(B, children), removeOutputs(B, children))).toThrow(
        /as both weak and destroyReady/,
      );
    });
  });
});
