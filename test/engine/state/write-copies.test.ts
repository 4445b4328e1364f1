import { describe, expect, it } from 'vitest';
import { createInMemoryState, newResource, type Pointer } from '../../../src/index.js';

interface Spec {
  config: { image: string; ports: number[] };
  status: { ready: boolean };
}

const pointer: Pointer = { namespace: 'default', type: 'Things.test.cosi.dev', id: 'a' };
const spec = (): Spec => ({ config: { image: 'nginx', ports: [80] }, status: { ready: false } });

describe('the copies the in-memory state makes on a write', () => {
  it('create stores a frozen copy and leaves the caller its draft, writable and unshared', async () => {
    const state = createInMemoryState();
    const draft = newResource<Spec>(pointer, spec(), {
      labels: { app: 'web' },
      finalizers: ['f', 'f'],
    });
    const stored = await state.create(draft);
    expect(Object.isFrozen(draft)).toBe(false);
    expect(Object.isFrozen(draft.spec.config)).toBe(false);
    expect(Object.isFrozen(draft.metadata.labels)).toBe(false);
    draft.spec.config.ports.push(443);
    draft.metadata.labels.app = 'changed';
    expect(stored.spec.config.ports).toEqual([80]);
    expect(stored.metadata.labels).toEqual({ app: 'web' });
    expect(stored.metadata.finalizers).toEqual(['f']);
    expect(Object.isFrozen(stored.spec.config.ports)).toBe(true);
    expect(Object.isFrozen(stored.metadata.labels)).toBe(true);
  });

  it('create from a stored resource shares its frozen spec', async () => {
    const state = createInMemoryState();
    const stored = await state.create(newResource<Spec>(pointer, spec()));
    const copy = await state.create({ ...stored, metadata: { ...stored.metadata, id: 'b' } });
    expect(copy.spec).toBe(stored.spec);
    expect(copy.metadata.id).toBe('b');
  });

  it('a modify shares what it did not change with the previous version', async () => {
    const state = createInMemoryState();
    const first = await state.create(
      newResource<Spec>(pointer, spec(), { labels: { app: 'web' } }),
    );
    const second = await state.modifyWithResult<Spec>(newResource<Spec>(pointer, spec()), (d) => {
      d.spec.status.ready = true;
    });
    expect(second.metadata.version).toBe(2);
    expect(second.spec.status).toEqual({ ready: true });
    expect(second.spec.config).toBe(first.spec.config);
    expect(second.metadata.labels).toEqual({ app: 'web' });
    expect(Object.isFrozen(second.spec.status)).toBe(true);
  });

  it('a modify that changes nothing returns the stored resource and writes nothing', async () => {
    const state = createInMemoryState();
    const first = await state.create(newResource<Spec>(pointer, spec()));
    const same = await state.modifyWithResult<Spec>(newResource<Spec>(pointer, spec()), (d) => {
      d.spec.config.image = 'nginx';
    });
    expect(same).toBe(first);
  });

  it('an updater written as an arrow that returns what it assigned is not awaited as a promise', async () => {
    const state = createInMemoryState();
    await state.create(newResource<Spec>(pointer, spec()));
    // (d) => (d.spec.x = v) returns v: a value, not a thenable.
    const updater = ((d: { spec: Spec }) => (d.spec.config.image = 'caddy')) as unknown as (d: {
      spec: Spec;
    }) => void;
    const stored = await state.modifyWithResult<Spec>(newResource<Spec>(pointer, spec()), updater);
    expect(stored.spec.config.image).toBe('caddy');
    const created = await state.modifyWithResult<Spec>(
      newResource<Spec>({ ...pointer, id: 'new' }, spec()),
      updater,
    );
    expect(created.metadata.version).toBe(1);
    expect(created.spec.config.image).toBe('caddy');
  });
});
