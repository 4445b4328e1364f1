import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDestroyController } from '../../src/index.js';
import { A, createHarness, ids, type Harness } from './harness.js';

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.runtime.stop();
});

describe('destroy controller', () => {
  it('is named Destroy[<type>] and shares its type as an output', () => {
    const ctrl = createDestroyController(A, { concurrency: 2 });
    expect(ctrl.name).toBe('Destroy[As.test.cosi.dev]');
    expect(ctrl.settings).toEqual({
      inputs: [{ namespace: A.namespace, type: A.type, kind: 'primary' }],
      outputs: [{ type: A.type, kind: 'shared' }],
      concurrency: 2,
    });
  });

  it('destroys an unowned resource that tears down without finalizers', async () => {
    await h.runtime.register(createDestroyController(A));
    await h.state.create(A.create('1'));
    await h.state.create(A.create('2'));
    await h.runtime.converge();
    await h.state.teardown(A.pointer('1'));
    await h.runtime.converge();
    expect(await ids(h, A.kind())).toEqual(['2']);
  });

  it('waits for the finalizers of a tearing-down resource to go', async () => {
    await h.runtime.register(createDestroyController(A));
    await h.state.create(A.create('1', undefined, { finalizers: ['hold'] }));
    await h.state.teardown(A.pointer('1'));
    const waiting = await h.runtime.converge();
    expect(waiting.errors).toBe(0);
    expect(await ids(h, A.kind())).toEqual(['1']);

    await h.state.removeFinalizer(A.pointer('1'), 'hold');
    await h.runtime.converge();
    expect(await ids(h, A.kind())).toEqual([]);
  });

  it('leaves a tearing-down resource that a controller owns to that controller', async () => {
    await h.runtime.register(createDestroyController(A));
    await h.state.create(A.create('1'), { owner: 'SomeController' });
    await h.state.teardown(A.pointer('1'), { owner: 'SomeController' });
    const report = await h.runtime.converge();
    expect(report.errors).toBe(0);
    expect(await ids(h, A.kind())).toEqual(['1']);
  });
});
