import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  type Draft,
  newResource,
  type Pointer,
  type Resource,
  type StateEvent,
} from '../../../src/index.js';

interface Spec {
  nested: { items: string[]; count: number };
}

const pointer: Pointer = { namespace: 'default', type: 'Things.test.cosi.dev', id: 'a' };
const kind = { namespace: pointer.namespace, type: pointer.type };

const draft = () =>
  newResource<Spec>(
    pointer,
    { nested: { items: ['x'], count: 1 } },
    {
      labels: { app: 'web' },
      finalizers: ['f1'],
    },
  );

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Runs a mutation through a writable view of a stored resource, as plain JavaScript could: the
 * types forbid it, the freeze must too.
 */
function mutate(resource: Resource<Spec>, fn: (r: Draft<Spec>) => unknown): () => void {
  return () => {
    fn(resource as unknown as Draft<Spec>);
  };
}

describe('stored resources are frozen', () => {
  it('throws a TypeError when a deep spec field of a resource from get is assigned', async () => {
    const state = createInMemoryState();
    await state.create(draft());
    const got = await state.get<Spec>(pointer);
    expect(
      mutate(got, (r) => {
        r.spec.nested.count = 2;
      }),
    ).toThrow(TypeError);
    expect(got.spec.nested.count).toBe(1);
  });

  it('throws a TypeError when an array inside the spec is pushed to', async () => {
    const state = createInMemoryState();
    await state.create(draft());
    const got = await state.get<Spec>(pointer);
    expect(mutate(got, (r) => r.spec.nested.items.push('y'))).toThrow(TypeError);
  });

  it('throws a TypeError when a label is set on stored metadata', async () => {
    const state = createInMemoryState();
    await state.create(draft());
    const got = await state.get<Spec>(pointer);
    expect(
      mutate(got, (r) => {
        r.metadata.labels.app = 'db';
      }),
    ).toThrow(TypeError);
    expect(
      mutate(got, (r) => {
        r.metadata.labels = {};
      }),
    ).toThrow(TypeError);
  });

  it('throws a TypeError when the finalizers array is changed', async () => {
    const state = createInMemoryState();
    await state.create(draft());
    const got = await state.get<Spec>(pointer);
    expect(mutate(got, (r) => r.metadata.finalizers.push('f2'))).toThrow(TypeError);
    expect(mutate(got, (r) => r.metadata.finalizers.pop())).toThrow(TypeError);
    expect(got.metadata.finalizers).toEqual(['f1']);
  });

  it('freezes the resource returned by create', async () => {
    const state = createInMemoryState();
    const stored = await state.create(draft());
    expect(
      mutate(stored, (r) => {
        r.metadata.version = 5;
      }),
    ).toThrow(TypeError);
  });

  it('freezes the resources returned by list', async () => {
    const state = createInMemoryState();
    await state.create(draft());
    const [listed] = await state.list<Spec>(kind);
    expect(
      mutate(listed!, (r) => {
        r.spec.nested = { items: [], count: 0 };
      }),
    ).toThrow(TypeError);
  });

  it('freezes the resources that watches deliver', async () => {
    const state = createInMemoryState();
    const events: StateEvent[] = [];
    await state.watchKind(kind, (event) => events.push(event));
    await state.create(draft());
    await settle();
    const [event] = events;
    if (event?.type !== 'created') throw new Error('expected a created event');
    expect(
      mutate(event.resource as Resource<Spec>, (r) => {
        r.spec.nested.count = 3;
      }),
    ).toThrow(TypeError);
  });

  it('leaves the caller draft writable after create', async () => {
    const state = createInMemoryState();
    const d = draft();
    await state.create(d);
    d.spec.nested.count = 10;
    d.metadata.finalizers.push('f2');
    expect(d.spec.nested.count).toBe(10);
    expect((await state.get<Spec>(pointer)).spec.nested.count).toBe(1);
  });

  it('hands modify a writable draft even though the stored resource is frozen', async () => {
    const state = createInMemoryState();
    await state.create(draft());
    await state.modify<Spec>(draft(), (d) => {
      d.spec.nested.items.push('y');
      d.metadata.labels.app = 'db';
    });
    const got = await state.get<Spec>(pointer);
    expect(got.spec.nested.items).toEqual(['x', 'y']);
    expect(got.metadata.labels).toEqual({ app: 'db' });
  });

  it('freezes every version all the way down, whichever write made it', async () => {
    const state = createInMemoryState();
    const versions: Resource<Spec>[] = [];
    const keep = (r: Resource<Spec>) => versions.push(r);
    keep(await state.create(draft()));
    // An update through modify that fills every collection of the metadata.
    keep(
      await state.modifyWithResult<Spec>(draft(), (d) => {
        d.metadata.labels.tier = 'front';
        d.metadata.annotations.note = 'kept';
        d.metadata.finalizers.push('f2');
        d.metadata.ownerReferences.push({
          type: 'Owners.test.cosi.dev',
          id: 'o',
          controller: true,
        });
        d.spec.nested.items.push('y');
      }),
    );
    // Collections replaced by new ones rather than changed in place.
    keep(
      await state.updateWithConflicts<Spec>(pointer, (d) => {
        d.metadata.labels = { tier: 'back' };
        d.metadata.finalizers = ['f3', 'f3', 'f4'];
        d.spec.nested = { items: ['z'], count: 3 };
      }),
    );
    await state.addFinalizer(pointer, 'f5');
    keep(await state.get<Spec>(pointer));
    await state.removeFinalizer(pointer, 'f3');
    keep(await state.get<Spec>(pointer));
    await state.teardown(pointer, { owner: '' });
    keep(await state.get<Spec>(pointer));
    for (const version of versions) expect(unfrozenPaths(version)).toEqual([]);
    expect(versions.map((v) => v.metadata.version)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(versions[5]!.metadata).toMatchObject({
      labels: { tier: 'back' },
      annotations: { note: 'kept' },
      finalizers: ['f4', 'f5'],
      phase: 'tearingDown',
    });
  });
});

/** The paths of every object reachable from `value` that is not frozen. */
function unfrozenPaths(value: unknown, path = '$'): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const own = Object.isFrozen(value) ? [] : [path];
  return own.concat(
    ...Object.entries(value).map(([key, child]) => unfrozenPaths(child, `${path}.${key}`)),
  );
}

describe('listeners that throw', () => {
  it('do not stop other listeners from receiving events', async () => {
    const state = createInMemoryState();
    const seen: string[] = [];
    await state.watchKind(kind, () => {
      throw new Error('bad listener');
    });
    await state.watchKind(kind, (event) => seen.push(event.type));
    await state.create(draft());
    await state.removeFinalizer(pointer, 'f1');
    await state.destroy(pointer);
    await settle();
    expect(seen).toEqual(['created', 'updated', 'destroyed']);
  });

  it('do not break the store: later writes and reads succeed', async () => {
    const state = createInMemoryState();
    await state.watch(pointer, () => {
      throw new Error('bad listener');
    });
    await state.create(draft());
    await settle();
    await state.modify<Spec>(draft(), (d) => {
      d.spec.nested.count = 2;
    });
    await settle();
    expect((await state.get<Spec>(pointer)).metadata.version).toBe(2);
  });

  it('keep receiving the events after the one they threw on', async () => {
    const state = createInMemoryState();
    const seen: string[] = [];
    await state.watchKind(kind, (event) => {
      seen.push(event.type);
      throw new Error('bad listener');
    });
    await state.create(draft());
    await state.addFinalizer(pointer, 'f2');
    await settle();
    expect(seen).toEqual(['created', 'updated']);
  });

  it('are reported to onListenerError with the error they threw', async () => {
    const errors: unknown[] = [];
    const state = createInMemoryState({ onListenerError: (error) => errors.push(error) });
    const boom = new Error('bad listener');
    await state.watchKind(kind, () => {
      throw boom;
    });
    await state.create(draft());
    await settle();
    expect(errors).toEqual([boom]);
  });
});
