import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  defineResource,
  pointerKey,
  ResourceApplier,
  toDraft,
  type KeyedResource,
  isResourceEvent,
  type StateEvent,
} from '../../../src/index.js';

const Note = defineResource<{ text: string }>({ type: 'Notes.test.cosi.dev' });

const keyed = (id: string, text: string, labels: Record<string, string> = {}): KeyedResource => {
  const resource = Note.create(id, { text }, { labels });
  return { key: pointerKey(resource.metadata), resource };
};

describe('the resource applier', () => {
  it('creates everything the first time', async () => {
    const state = createInMemoryState();
    const result = await new ResourceApplier(state).apply([keyed('a', '1'), keyed('b', '2')]);
    expect(result.created).toHaveLength(2);
    expect((await state.list(Note.kind())).map((r) => r.metadata.id)).toEqual(['a', 'b']);
  });

  it('creates new resources without looking each one up first (no not-found error apiece)', async () => {
    const state = createInMemoryState();
    let gets = 0;
    const counted = new Proxy(state, {
      get(target, name, receiver) {
        if (name === 'get') gets++;
        const value: unknown = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    await state.create(Note.create('there', { text: 'old' }));
    const result = await new ResourceApplier(counted).apply([
      keyed('a', '1'),
      keyed('b', '2'),
      keyed('there', 'new'),
    ]);
    expect(result).toMatchObject({ created: [keyed('a', '1').key, keyed('b', '2').key] });
    expect(result.updated).toEqual([keyed('there', 'new').key]);
    // Only the one that was there already was looked up.
    expect(gets).toBe(1);
    expect((await state.get(Note.pointer('there'))).spec).toEqual({ text: 'new' });
  });

  it('with concurrency, keeps that many writes in flight and lists the outcomes in the desired order', async () => {
    const state = createInMemoryState();
    await state.create(Note.create('n03', { text: 'old' }));
    let inFlight = 0;
    let most = 0;
    /** Each create waits a macrotask: the writes overlap as they would on etcd. */
    const slow = new Proxy(state, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        const method = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
        return async (...args: unknown[]) => {
          most = Math.max(most, ++inFlight);
          try {
            await new Promise((resolve) => setImmediate(resolve));
            return await method(...args);
          } finally {
            inFlight--;
          }
        };
      },
    });
    const desired = Array.from({ length: 10 }, (_, i) =>
      keyed(`n${String(i).padStart(2, '0')}`, 'new'),
    );
    const result = await new ResourceApplier(slow, { concurrency: 4 }).apply(desired);
    expect(most).toBe(4);
    expect(result.created).toEqual(desired.filter((_, i) => i !== 3).map((d) => d.key));
    expect(result.updated).toEqual([desired[3]?.key]);
    expect((await state.list(Note.kind())).map((r) => r.spec)).toEqual(
      desired.map(() => ({ text: 'new' })),
    );
  });

  it('with concurrency, a failed write fails the apply and starts no further write', async () => {
    const state = createInMemoryState();
    let creates = 0;
    const failing = new Proxy(state, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (name !== 'create' || typeof value !== 'function') {
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        }
        return async (...args: unknown[]) => {
          if (++creates === 2) throw new Error('etcd went away');
          await new Promise((resolve) => setImmediate(resolve));
          return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    });
    const desired = Array.from({ length: 20 }, (_, i) =>
      keyed(`n${String(i).padStart(2, '0')}`, 'x'),
    );
    await expect(new ResourceApplier(failing, { concurrency: 3 }).apply(desired)).rejects.toThrow(
      'etcd went away',
    );
    // The three started at once, and the one that took the failed worker's place: no more.
    expect(creates).toBeLessThanOrEqual(4);
    expect(() => new ResourceApplier(state, { concurrency: 0 })).toThrow(RangeError);
  });

  it('made to apply once (keepApplied: false), counts what it applied and keeps none of it', async () => {
    const state = createInMemoryState();
    const applier = new ResourceApplier(state, { keepApplied: false });
    const a = keyed('a', '1');
    const result = await applier.apply([a, keyed('b', '2')]);
    expect(result.created).toEqual([a.key, keyed('b', '2').key]);
    expect(applier.size).toBe(2);
    // Nothing of the applied resources is held: the caller may release them.
    expect(applier.appliedAt(a.key)).toBeUndefined();
    expect((await state.list(Note.kind())).map((r) => r.metadata.id)).toEqual(['a', 'b']);
    await expect(applier.apply([a])).rejects.toThrow(/apply once/);
  });

  it('writes only what changed against the previous set, and tears down what is gone', async () => {
    const state = createInMemoryState();
    const before = [
      keyed('same', 'x'),
      keyed('edited', 'old'),
      keyed('relabelled', 'y'),
      keyed('gone', 'z'),
    ];
    const applier = new ResourceApplier(state);
    await applier.apply(before);
    await state.addFinalizer(Note.pointer('gone'), 'someone');
    const events: StateEvent[] = [];
    await state.watchKind(Note.kind(), (e) => events.push(e));

    const after = [
      keyed('same', 'x'),
      keyed('edited', 'new'),
      keyed('relabelled', 'y', { a: 'b' }),
      keyed('new', 'n'),
    ];
    const result = await applier.apply(after);
    await new Promise((resolve) => setImmediate(resolve));

    expect(result).toEqual({
      created: [pointerKey(Note.pointer('new'))],
      updated: [pointerKey(Note.pointer('edited')), pointerKey(Note.pointer('relabelled'))],
      tornDown: [pointerKey(Note.pointer('gone'))],
      unchanged: [pointerKey(Note.pointer('same'))],
    });
    expect(
      events.map((e) => (isResourceEvent(e) ? `${e.type} ${e.resource.metadata.id}` : e.type)),
    ).toEqual(['updated edited', 'updated relabelled', 'created new', 'updated gone']);
    const gone = await state.get(Note.pointer('gone'));
    expect(gone.metadata.phase).toBe('tearingDown');
    expect((await state.get(Note.pointer('same'))).metadata.version).toBe(1);
  });

  it("updates a resource whose manifest now names an owner (kubectl's ownerReferences), or no longer does, keeping other owners", async () => {
    const state = createInMemoryState();
    const applier = new ResourceApplier(state);
    await applier.apply([keyed('a', '1')]);
    await state.updateWithConflicts(Note.pointer('a'), (draft) => {
      draft.metadata.ownerReferences = [{ type: 'Others.test.cosi.dev', id: 'o' }];
    });
    const owned = keyed('a', '1');
    owned.resource.metadata.ownerReferences = [
      { type: 'Owners.test.cosi.dev', id: 'x', controller: true },
    ];
    const result = await applier.apply([owned]);
    expect(result.updated).toEqual([pointerKey(Note.pointer('a'))]);
    expect((await state.get(Note.pointer('a'))).metadata.ownerReferences).toEqual([
      { type: 'Others.test.cosi.dev', id: 'o' },
      { type: 'Owners.test.cosi.dev', id: 'x', controller: true },
    ]);
    expect((await applier.apply([owned])).unchanged).toEqual([pointerKey(Note.pointer('a'))]);
    // The manifest no longer names its owner: the reference goes, the other writer's stays.
    expect((await applier.apply([keyed('a', '1')])).updated).toEqual([
      pointerKey(Note.pointer('a')),
    ]);
    expect((await state.get(Note.pointer('a'))).metadata.ownerReferences).toEqual([
      { type: 'Others.test.cosi.dev', id: 'o' },
    ]);
  });

  it('counts a resource unchanged when another writer (a controller adding a finalizer) moved it meanwhile, and the apply wrote nothing', async () => {
    const state = createInMemoryState();
    await state.create(Note.create('a', { text: '1' }));
    // Between the applier's read and its update, a controller adds its finalizer.
    const racing = new Proxy(state, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (name !== 'get') {
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        }
        return async (...args: Parameters<typeof target.get>) => {
          const read = await target.get(...args);
          await target.addFinalizer(Note.pointer('a'), 'SomeController');
          return read;
        };
      },
    });
    // A first apply of a resource already there (another process applied it): it reads it.
    const result = await new ResourceApplier(racing).apply([keyed('a', '1')]);
    expect(result).toMatchObject({ updated: [], unchanged: [pointerKey(Note.pointer('a'))] });
    const stored = await state.get(Note.pointer('a'));
    expect([stored.metadata.version, stored.metadata.finalizers]).toEqual([2, ['SomeController']]);
  });

  it('does not count as removed what another applier of the same manifests tore down first', async () => {
    const state = createInMemoryState();
    const one = new ResourceApplier(state);
    const two = new ResourceApplier(state);
    await one.apply([keyed('a', '1')]);
    await two.apply([keyed('a', '1')]);
    await state.addFinalizer(Note.pointer('a'), 'controller');
    expect((await one.apply([])).tornDown).toEqual([keyed('a', '1').key]);
    expect((await two.apply([])).tornDown).toEqual([]);
    // Both see it destroyed once its finalizer is gone, whichever gets there first.
    await state.removeFinalizer(Note.pointer('a'), 'controller');
    expect(await two.destroyReleased()).toBe(true);
    expect(await one.destroyReleased()).toBe(false);
    expect(await state.list(Note.kind())).toEqual([]);
  });

  it('destroys a removed resource at once when nothing holds it', async () => {
    const state = createInMemoryState();
    const applier = new ResourceApplier(state);
    await applier.apply([keyed('free', 'x')]);
    const result = await applier.apply([]);
    expect(result.tornDown).toHaveLength(1);
    expect(await state.list(Note.kind())).toEqual([]);
  });

  it('destroys a released resource once the finalizers that held it are gone', async () => {
    const state = createInMemoryState();
    const applier = new ResourceApplier(state);
    await applier.apply([keyed('held', 'x')]);
    await state.addFinalizer(Note.pointer('held'), 'controller');
    await applier.apply([]);
    expect(await applier.destroyReleased()).toBe(false);
    expect((await state.get(Note.pointer('held'))).metadata.phase).toBe('tearingDown');

    await state.removeFinalizer(Note.pointer('held'), 'controller');
    expect(await applier.destroyReleased()).toBe(true);
    expect(await state.list(Note.kind())).toEqual([]);
    expect(await applier.destroyReleased()).toBe(false);
  });

  it('creates again a released resource that came back in a later apply, once it is destroyed (it cannot leave tearingDown)', async () => {
    const state = createInMemoryState();
    const applier = new ResourceApplier(state);
    await applier.apply([keyed('back', 'x')]);
    await state.addFinalizer(Note.pointer('back'), 'controller');
    await applier.apply([]);
    const result = await applier.apply([keyed('back', 'x')]);
    expect(result.unchanged).toEqual([pointerKey(Note.pointer('back'))]);
    // Still held: nothing happens yet.
    expect(await applier.destroyReleased()).toBe(false);
    expect((await state.get(Note.pointer('back'))).metadata.phase).toBe('tearingDown');
    await state.removeFinalizer(Note.pointer('back'), 'controller');
    expect(await applier.destroyReleased()).toBe(true);
    const back = await state.get(Note.pointer('back'));
    expect(back.metadata.phase).toBe('running');
    expect(back.spec).toEqual({ text: 'x' });
    expect(applier.releasing).toBe(0);
  });

  it('takes on resources another applier left tearing down: destroys them, and creates again those still wanted', async () => {
    const state = createInMemoryState();
    const before = new ResourceApplier(state);
    await before.apply([keyed('gone', '1'), keyed('kept', '2')]);
    for (const id of ['gone', 'kept']) await state.addFinalizer(Note.pointer(id), 'controller');
    await before.apply([]);
    // A new process: the manifests give `kept` again.
    const after = new ResourceApplier(state);
    await after.apply([keyed('kept', '2')]);
    after.adoptReleased([Note.pointer('gone'), Note.pointer('kept')]);
    for (const id of ['gone', 'kept']) await state.removeFinalizer(Note.pointer(id), 'controller');
    expect(await after.destroyReleased()).toBe(true);
    const left = await state.list(Note.kind());
    expect(left.map((r) => [r.metadata.id, r.metadata.phase])).toEqual([['kept', 'running']]);
  });
});

describe('the resource applier by groups', () => {
  type FileNote = KeyedResource & { readonly file: string };
  const inFile = (file: string, id: string, text: string): FileNote => ({
    ...keyed(id, text),
    file,
  });
  const grouped = (state: ReturnType<typeof createInMemoryState>) =>
    new ResourceApplier<FileNote>(state, { groupOf: (r) => r.file });
  const key = (id: string) => pointerKey(Note.pointer(id));

  it('compares only the resources of the groups given, and leaves the others alone', async () => {
    const state = createInMemoryState();
    const applier = grouped(state);
    const tree = Array.from({ length: 100 }, (_, f) =>
      Array.from({ length: 10 }, (_, i) => inFile(`f${f}`, `n-${f}-${i}`, 'x')),
    );
    await applier.apply(tree.flat());
    expect(applier.compared).toBe(1000);

    const edited = (tree[42] as FileNote[]).map((r, i) =>
      i === 3 ? inFile('f42', r.resource.metadata.id, 'y') : r,
    );
    const result = await applier.applyGroups(new Map([['f42', edited]]));
    expect(applier.compared).toBe(10);
    expect(result).toEqual({
      created: [],
      updated: [key('n-42-3')],
      tornDown: [],
      unchanged: edited.filter((_, i) => i !== 3).map((r) => r.key),
    });
    expect(applier.size).toBe(1000);
    expect((await state.get<{ text: string }>(Note.pointer('n-42-3'))).spec.text).toBe('y');
  });

  it('creates, tears down and moves resources between the groups given, as a whole apply would', async () => {
    const state = createInMemoryState();
    const applier = grouped(state);
    await applier.apply([
      inFile('a', 'stays', '1'),
      inFile('a', 'moves', '2'),
      inFile('b', 'goes', '3'),
    ]);
    const result = await applier.applyGroups(
      new Map([
        ['a', [inFile('a', 'stays', '1'), inFile('a', 'new', '4')]],
        ['b', []],
        ['c', [inFile('c', 'moves', '2')]],
      ]),
    );
    expect(result).toEqual({
      created: [key('new')],
      updated: [],
      tornDown: [key('goes')],
      unchanged: [key('stays'), key('moves')],
    });
    expect(applier.size).toBe(3);
    expect((await state.list(Note.kind())).map((r) => r.metadata.id)).toEqual([
      'moves',
      'new',
      'stays',
    ]);
    // The moved resource belongs to its new group: removing that group tears it down.
    const again = await applier.applyGroups(new Map([['c', []]]));
    expect(again.tornDown).toEqual([key('moves')]);
    // And a later whole apply starts from what the groups hold.
    const whole = await applier.apply([inFile('a', 'stays', '1'), inFile('a', 'new', '4')]);
    expect(whole.unchanged).toEqual([key('stays'), key('new')]);
    expect(whole.tornDown).toEqual([]);
  });

  it("a new applier given the label keys an earlier apply set (its applied set) removes those its manifest dropped, and keeps a controller's", async () => {
    const state = createInMemoryState();
    await new ResourceApplier(state).apply([keyed('a', '1', { team: 'x', tier: 'web' })]);
    const stored = toDraft(await state.get(Note.pointer('a')));
    stored.metadata.labels['controller/owned'] = 'true';
    await state.update(stored);
    // The next process: the manifest dropped `tier` while no run was up.
    const again = new ResourceApplier(state);
    again.adopt([{ ...Note.pointer('a'), labels: ['team', 'tier'], annotations: [] }]);
    const result = await again.apply([keyed('a', '1', { team: 'x' })]);
    expect(result.updated).toEqual([keyed('a', '1').key]);
    expect((await state.get(Note.pointer('a'))).metadata.labels).toEqual({
      team: 'x',
      'controller/owned': 'true',
    });
  });

  it("a new applier given the owners an earlier apply's manifest named (its applied set) removes those it dropped or changed, and keeps a controller's", async () => {
    const state = createInMemoryState();
    const withOwners = (...ids: string[]): KeyedResource => {
      const item = keyed('a', '1');
      item.resource.metadata.ownerReferences = ids.map((id) => ({
        type: 'Owners.test.cosi.dev',
        id,
        controller: id === 'x',
      }));
      return item;
    };
    await new ResourceApplier(state).apply([withOwners('x', 'y')]);
    await state.updateWithConflicts(Note.pointer('a'), (draft) => {
      draft.metadata.ownerReferences.push({ type: 'Others.test.cosi.dev', id: 'o' });
    });
    // The next process: the manifest dropped `y` and names `z` instead of `x` now.
    const again = new ResourceApplier(state);
    again.adopt([
      {
        ...Note.pointer('a'),
        ownerReferences: [
          { type: 'Owners.test.cosi.dev', id: 'x' },
          { type: 'Owners.test.cosi.dev', id: 'y' },
        ],
      },
    ]);
    const result = await again.apply([withOwners('z')]);
    expect(result.updated).toEqual([keyed('a', '1').key]);
    expect((await state.get(Note.pointer('a'))).metadata.ownerReferences).toEqual([
      { type: 'Others.test.cosi.dev', id: 'o' },
      { type: 'Owners.test.cosi.dev', id: 'z', controller: false },
    ]);
  });

  it('leaves a retained resource (given, but too large to apply) as applied, its own or adopted, and tears it down once it is not given', async () => {
    const state = createInMemoryState();
    const applier = new ResourceApplier(state);
    await applier.apply([keyed('a', '1', { team: 'x' }), keyed('b', '1')]);
    const a = keyed('a', '1').key;
    const retained = new Set([a]);
    const kept = await applier.apply([keyed('b', '1')], { retained });
    expect(kept).toEqual({
      created: [],
      updated: [],
      tornDown: [],
      unchanged: [keyed('b', '1').key],
    });
    expect((await state.get(Note.pointer('a'))).spec).toEqual({ text: '1' });
    expect(applier.lastApplied(a)).toMatchObject({ id: 'a', labels: { team: 'x' } });
    // A new process adopts what the last one recorded, and leaves it the same way.
    const next = new ResourceApplier(state);
    next.adopt([{ ...Note.pointer('a'), labels: ['team'] }, Note.pointer('b')]);
    expect((await next.apply([keyed('b', '1')], { retained })).tornDown).toEqual([]);
    expect(next.lastApplied(a)).toMatchObject({ id: 'a', labels: { team: '' } });
    expect((await state.list(Note.kind())).map((r) => r.metadata.id)).toEqual(['a', 'b']);
    // No longer given at all: torn down, as any resource the manifests dropped.
    expect((await next.apply([keyed('b', '1')])).tornDown).toEqual([a]);
    expect((await state.list(Note.kind())).map((r) => r.metadata.id)).toEqual(['b']);
    expect(next.lastApplied(a)).toBeUndefined();
  });

  it("a new applier given the kept spec fields an earlier apply's manifest set (its applied set) removes a status the manifest dropped", async () => {
    const Instance = defineResource<{ spec: { port: number }; status?: unknown }>({
      type: 'WebApps.kro.run',
    });
    const manifest = (status?: unknown) => {
      const resource = Instance.create('shop', {
        spec: { port: 80 },
        ...(status === undefined ? {} : { status }),
      });
      return { key: pointerKey(resource.metadata), resource };
    };
    const options = {
      keptSpecFields: (type: string) => (type === Instance.type ? ['status'] : []),
    };
    const state = createInMemoryState();
    await new ResourceApplier(state, options).apply([manifest({ state: 'ACTIVE' })]);
    // Not recorded (an applied set of an earlier version): the status may be a controller's.
    const unrecorded = new ResourceApplier(state, options);
    unrecorded.adopt([Instance.pointer('shop')]);
    expect((await unrecorded.apply([manifest()])).unchanged).toHaveLength(1);
    // Recorded as set by the manifest: the next process removes it.
    const next = new ResourceApplier(state, options);
    next.adopt([{ ...Instance.pointer('shop'), specFields: ['status'] }]);
    expect((await next.apply([manifest()])).updated).toHaveLength(1);
    expect((await state.get(Instance.pointer('shop'))).spec).toEqual({ spec: { port: 80 } });
  });

  it("keeps what a controller added to a manifest's resource: a new applier over that state writes nothing", async () => {
    // A kro instance: its controller labels it and writes its status into the spec.
    interface InstanceSpec {
      spec: { port: number };
      status?: unknown;
    }
    const Instance = defineResource<InstanceSpec>({
      type: 'WebApps.kro.run',
    });
    const manifest = (port: number, labels: Record<string, string> = { team: 'a' }) => {
      const resource = Instance.create('shop', { spec: { port } }, { labels });
      return { key: pointerKey(resource.metadata), resource };
    };
    const state = createInMemoryState();
    const options = {
      keptSpecFields: (type: string) => (type === Instance.type ? ['status'] : []),
    };
    await new ResourceApplier(state, options).apply([manifest(80)]);
    const stored = toDraft(await state.get<InstanceSpec>(Instance.pointer('shop')));
    stored.metadata.labels['kro.run/owned'] = 'true';
    stored.spec.status = { state: 'ACTIVE' };
    await state.update(stored);
    const before = await state.get(Instance.pointer('shop'));

    // Another process (a restart, a second replica) applies the same manifests.
    const again = new ResourceApplier(state, options);
    const result = await again.apply([manifest(80)]);
    expect(result.unchanged).toEqual([manifest(80).key]);
    expect(result.updated).toEqual([]);
    const after = await state.get(Instance.pointer('shop'));
    expect(after.metadata.version).toBe(before.metadata.version);
    expect(after.metadata.labels).toEqual({ team: 'a', 'kro.run/owned': 'true' });
    expect(after.spec).toEqual({ spec: { port: 80 }, status: { state: 'ACTIVE' } });

    // An edit changes the spec and drops the label that apply set, and keeps the controller's.
    const edited = await again.apply([manifest(81, {})]);
    expect(edited.updated).toEqual([manifest(81).key]);
    const last = await state.get(Instance.pointer('shop'));
    expect(last.metadata.labels).toEqual({ 'kro.run/owned': 'true' });
    expect(last.spec).toEqual({ spec: { port: 81 }, status: { state: 'ACTIVE' } });

    // A status the manifest itself set (an observed status) goes when the manifest drops it.
    const observed = manifest(81, {});
    observed.resource.spec.status = { observed: true };
    await again.apply([observed]);
    await again.apply([manifest(81, {})]);
    expect((await state.get(Instance.pointer('shop'))).spec).toEqual({ spec: { port: 81 } });
  });

  it('refuses groups without a groupOf', async () => {
    await expect(new ResourceApplier(createInMemoryState()).applyGroups(new Map())).rejects.toThrow(
      /groupOf/,
    );
  });
});
