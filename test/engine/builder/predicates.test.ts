import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  labelEqual,
  labelQuery,
  newResource,
  toDraft,
  type Draft,
  type Resource,
} from '../../../src/index.js';
import { freezeResource } from '../../../src/engine/resource/resource.js';
import { toPartialObjectMetadata } from '../../../src/engine/builder/events.js';
import {
  and,
  annotationsChanged,
  generationChanged,
  labelSelectorPredicate,
  labelsChanged,
  newPredicateFuncs,
  not,
  or,
  predicateFuncs,
  specChanged,
  versionChanged,
  type Predicate,
  type PredicateFuncs,
} from '../../../src/engine/builder/predicates.js';
import { VM } from './fixtures.js';

interface VMSpec {
  cpus: number;
  image: string;
}
type VMResource = Resource<VMSpec>;

const stored = (version = 1): VMResource => {
  const draft = VM.create('web', { cpus: 1, image: 'debian' }, { labels: { app: 'web' } });
  draft.metadata.version = version;
  return freezeResource(draft);
};

/** The stored resource after `change`, one version later. */
function changed(old: VMResource, change: (d: Draft<VMSpec>) => void): VMResource {
  const draft = toDraft<VMSpec>(old);
  change(draft);
  draft.metadata.version++;
  return freezeResource(draft);
}

const always: Predicate = predicateFuncs({});
const never: Predicate = not(always);

describe('predicateFuncs', () => {
  it('passes every kind of event it has no function for', () => {
    const vm = stored();
    const p = predicateFuncs({ delete: () => false });
    expect(p.create({ object: vm })).toBe(true);
    expect(p.update({ objectOld: vm, objectNew: vm })).toBe(true);
    expect(p.generic({ object: vm })).toBe(true);
    expect(p.delete({ object: vm })).toBe(false);
  });
});

describe('newPredicateFuncs', () => {
  it("refuses controller-runtime's UpdateFunc, which passed every update unseen, naming the key meant", () => {
    const funcs = { UpdateFunc: () => false } as unknown as PredicateFuncs;
    expect(() => predicateFuncs(funcs)).toThrow(
      new TypeError('predicateFuncs: unknown key "UpdateFunc" (did you mean update?)'),
    );
    expect(() => predicateFuncs({ updte: () => false } as unknown as PredicateFuncs)).toThrow(
      'unknown key "updte" (did you mean update?)',
    );
    expect(() => predicateFuncs({ filter: () => false } as unknown as PredicateFuncs)).toThrow(
      'unknown key "filter" (it takes create, update, delete, generic)',
    );
  });

  it('refuses a value that is no function, and anything but an object', () => {
    expect(() => predicateFuncs({ update: false } as unknown as PredicateFuncs)).toThrow(
      'predicateFuncs: update must be a function, got false',
    );
    expect(() => predicateFuncs(undefined as unknown as PredicateFuncs)).toThrow(
      'predicateFuncs takes an object of functions { create, update, delete, generic }, got undefined',
    );
  });

  it('refuses anything but a filter function where it is called, not at every event', () => {
    expect(() => newPredicateFuncs({ app: 'web' } as never)).toThrow(
      new TypeError('newPredicateFuncs takes a function, got {"app":"web"}'),
    );
  });

  it('applies the filter to the new object on update', () => {
    const old = stored();
    const renamed = changed(old, (d) => {
      d.metadata.labels.app = 'db';
    });
    const isWeb = newPredicateFuncs((o) => o.metadata.labels.app === 'web');
    expect(isWeb.update({ objectOld: old, objectNew: renamed })).toBe(false);
    expect(isWeb.update({ objectOld: renamed, objectNew: old })).toBe(true);
  });
});

describe('generationChanged', () => {
  it("passes spec changes and a teardown's start, drops status, label and finalizer writes", async () => {
    const state = createInMemoryState();
    const pointer = { namespace: 'default', type: 'WebApps.kro.run', id: 'blog' };
    type Body = { spec: { replicas: number }; status?: { ready: number } };
    let old = await state.create(newResource<Body>(pointer, { spec: { replicas: 1 } }));
    const write = async (change: (d: Draft<Body>) => void): Promise<boolean> => {
      const next = await state.modifyWithResult(
        newResource<Body>(pointer, { spec: { replicas: 0 } }),
        change,
      );
      const passed = generationChanged.update({ objectOld: old, objectNew: next });
      old = next;
      return passed;
    };
    expect(await write((d) => void (d.spec.status = { ready: 1 }))).toBe(false);
    expect(await write((d) => void (d.metadata.labels = { tier: 'gold' }))).toBe(false);
    expect(await write((d) => void (d.metadata.finalizers = ['example.com/hold']))).toBe(false);
    expect(await write((d) => void (d.spec.spec.replicas = 3))).toBe(true);
    await state.teardown(pointer);
    const tearing = await state.get<Body>(pointer);
    expect(generationChanged.update({ objectOld: old, objectNew: tearing })).toBe(true);
    // Metadata-only watches carry the generation too.
    const partial = generationChanged.update({
      objectOld: toPartialObjectMetadata(old),
      objectNew: toPartialObjectMetadata(tearing),
    });
    expect(partial).toBe(true);
  });

  it('drops the status write that specChanged passes (the difference the docs name)', async () => {
    const state = createInMemoryState();
    const pointer = { namespace: 'default', type: 'WebApps.kro.run', id: 'blog' };
    type Body = { spec: { replicas: number }; status?: { ready: number } };
    const old = await state.create(newResource<Body>(pointer, { spec: { replicas: 1 } }));
    const next = await state.modifyWithResult(
      newResource<Body>(pointer, { spec: { replicas: 0 } }),
      (d) => void (d.spec.status = { ready: 1 }),
    );
    expect(generationChanged.update({ objectOld: old, objectNew: next })).toBe(false);
    expect(specChanged.update({ objectOld: old, objectNew: next })).toBe(true);
  });
});

describe('specChanged', () => {
  it('passes an update that changes the spec', () => {
    const old = stored();
    const resized = changed(old, (d) => {
      d.spec.cpus = 4;
    });
    expect(specChanged.update({ objectOld: old, objectNew: resized })).toBe(true);
  });

  it('drops an update that changes only metadata', () => {
    const old = stored();
    const relabelled = changed(old, (d) => {
      d.metadata.labels.tier = 'gold';
    });
    expect(specChanged.update({ objectOld: old, objectNew: relabelled })).toBe(false);
  });

  it('drops every update on metadata-only objects, which carry no spec', () => {
    const old = stored();
    const resized = changed(old, (d) => {
      d.spec.cpus = 4;
    });
    const e = {
      objectOld: toPartialObjectMetadata(old),
      objectNew: toPartialObjectMetadata(resized),
    };
    expect(specChanged.update(e)).toBe(false);
  });

  it('passes the start of a teardown, as the API server bumps the generation for it', () => {
    const old = stored();
    const tearingDown = changed(old, (d) => {
      d.metadata.phase = 'tearingDown';
    });
    expect(specChanged.update({ objectOld: old, objectNew: tearingDown })).toBe(true);
    const e = {
      objectOld: toPartialObjectMetadata(old),
      objectNew: toPartialObjectMetadata(tearingDown),
    };
    expect(specChanged.update(e)).toBe(true);
  });

  it('passes creates and deletes', () => {
    expect(specChanged.create({ object: stored() })).toBe(true);
    expect(specChanged.delete({ object: stored() })).toBe(true);
  });
});

describe('labelsChanged and annotationsChanged', () => {
  it('labelsChanged passes a label change and drops a spec change', () => {
    const old = stored();
    const relabelled = changed(old, (d) => {
      d.metadata.labels.tier = 'gold';
    });
    const resized = changed(old, (d) => {
      d.spec.cpus = 8;
    });
    expect(labelsChanged.update({ objectOld: old, objectNew: relabelled })).toBe(true);
    expect(labelsChanged.update({ objectOld: old, objectNew: resized })).toBe(false);
  });

  it('annotationsChanged passes an annotation change and drops a label change', () => {
    const old = stored();
    const annotated = changed(old, (d) => {
      d.metadata.annotations.note = 'hi';
    });
    const relabelled = changed(old, (d) => {
      d.metadata.labels.tier = 'gold';
    });
    expect(annotationsChanged.update({ objectOld: old, objectNew: annotated })).toBe(true);
    expect(annotationsChanged.update({ objectOld: old, objectNew: relabelled })).toBe(false);
  });
});

describe('versionChanged', () => {
  it('passes a new version and drops a re-delivery of the same one', () => {
    const old = stored(3);
    expect(versionChanged.update({ objectOld: old, objectNew: stored(4) })).toBe(true);
    expect(versionChanged.update({ objectOld: old, objectNew: stored(3) })).toBe(false);
  });
});

describe('labelSelectorPredicate', () => {
  it('passes objects whose labels match the query', () => {
    const p = labelSelectorPredicate(labelQuery(labelEqual('app', 'web')));
    const db = changed(stored(), (d) => {
      d.metadata.labels.app = 'db';
    });
    expect(p.create({ object: stored() })).toBe(true);
    expect(p.create({ object: db })).toBe(false);
  });
});

describe('and, or, not', () => {
  const vm = stored();
  const e = { object: vm };

  it('and passes only when every predicate passes, and passes when empty', () => {
    expect(and(always, always).create(e)).toBe(true);
    expect(and(always, never).create(e)).toBe(false);
    expect(and().create(e)).toBe(true);
  });

  it('and stops at the first predicate that refuses', () => {
    let asked = false;
    const spy = predicateFuncs({ create: () => (asked = true) });
    and(never, spy).create(e);
    expect(asked).toBe(false);
  });

  it('or passes when any predicate passes, and refuses when empty', () => {
    expect(or(never, always).create(e)).toBe(true);
    expect(or(never, never).create(e)).toBe(false);
    expect(or().create(e)).toBe(false);
  });

  it('not inverts each kind of event', () => {
    const onlyDeletes = not(predicateFuncs({ delete: () => false }));
    expect(onlyDeletes.delete(e)).toBe(true);
    expect(onlyDeletes.create(e)).toBe(false);
  });
});
