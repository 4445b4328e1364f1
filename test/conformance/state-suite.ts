/**
 * The State conformance suite: every backend of the `State` interface must pass it.
 *
 * Register it from a test file with a factory that makes a fresh, empty state:
 *
 * @example
 * describeStateConformance('in-memory', ({ now }) => createInMemoryState({ now }));
 *
 * Watch delivery is asynchronous, so tests wait with {@link settle} (a few macrotask turns), never
 * with real sleeps; timestamps come from the injected clock. A backend whose watches travel over
 * a network (etcd) adds a `settle` hook ({@link StateConformanceHooks}) that waits until its
 * watches have received what was written.
 */
import { describe, expect, it } from 'vitest';
import {
  ALL_NAMESPACES,
  ConflictError,
  idRegexp,
  isConflict,
  isInvalidBookmark,
  isNotFound,
  isOwnerConflict,
  isPhaseConflict,
  isTombstone,
  labelEqual,
  labelExists,
  labelIn,
  labelLT,
  labelLTE,
  labelLTENumeric,
  labelLTNumeric,
  labelQuery,
  newResource,
  notMatches,
  NotFoundError,
  toDraft,
  type ConflictReason,
  type Draft,
  type Kind,
  type LabelQuery,
  type ListOptions,
  type Pointer,
  type Resource,
  type State,
  type StateEvent,
  type WatchKindOptions,
  type WatchOptions,
} from '../../src/index.js';

export interface StateFactoryOptions {
  /** The clock the state must stamp `created` / `updated` with. */
  readonly now: () => number;
}

export type StateFactory = (options: StateFactoryOptions) => State;

/** What a backend whose watches travel over a network adds to the suite. */
export interface StateConformanceHooks {
  /**
   * Resolves once the watches of the states made so far have received every change written so
   * far; {@link settle} then lets their listeners run. Not needed by an in-process state.
   */
  readonly settle?: () => Promise<void>;
}

interface PathSpec {
  path: string;
  size?: number;
}

const NS = 'default';
const TYPE = 'Paths.test.cosi.dev';
const OTHER_TYPE = 'Files.test.cosi.dev';
const KIND: Kind = { namespace: NS, type: TYPE };
const START = Date.UTC(2025, 0, 1);

const ptr = (id: string, namespace = NS, type = TYPE): Pointer => ({ namespace, type, id });

function path(
  id: string,
  options: { namespace?: string; type?: string; labels?: Record<string, string> } = {},
): Draft<PathSpec> {
  return newResource<PathSpec>(
    { namespace: options.namespace ?? NS, type: options.type ?? TYPE, id },
    { path: `/${id}` },
    options.labels ? { labels: options.labels } : {},
  );
}

/** Lets every pending microtask and one macrotask turn run, a few times over. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

const settleTurns = settle;

/** The error a promise rejects with; fails the test if it resolves. */
async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the operation to fail, but it succeeded');
}

async function expectConflict(promise: Promise<unknown>, reason: ConflictReason): Promise<void> {
  const error = await errorOf(promise);
  expect(error).toBeInstanceOf(ConflictError);
  expect(error).toMatchObject({ code: 'conflict', reason });
}

async function expectNotFound(promise: Promise<unknown>): Promise<void> {
  const error = await errorOf(promise);
  expect(isNotFound(error)).toBe(true);
}

/** `type:id@version`, or `bootstrapped` / `noop`: enough to compare event streams. */
function describeEvent(event: StateEvent): string {
  switch (event.type) {
    case 'created':
    case 'updated':
    case 'destroyed':
      return `${event.type}:${event.resource.metadata.id}@${event.resource.metadata.version}`;
    case 'bootstrapped':
      return 'bootstrapped';
    case 'noop':
      return 'noop';
    case 'errored':
      return `errored:${event.error.message}`;
  }
}

interface Recorder {
  readonly events: StateEvent[];
  /** The events so far, as {@link describeEvent} strings. */
  readonly seen: () => string[];
  readonly stop: () => void;
}

function recorder(): Recorder & { readonly controller: AbortController } {
  const events: StateEvent[] = [];
  const controller = new AbortController();
  return {
    events,
    controller,
    seen: () => events.map(describeEvent),
    stop: () => {
      controller.abort();
    },
  };
}

async function watchKind(
  state: State,
  options: Omit<WatchKindOptions, 'signal'> = {},
  kind: Kind = KIND,
): Promise<Recorder> {
  const rec = recorder();
  await state.watchKind(kind, (event) => rec.events.push(event), {
    ...options,
    signal: rec.controller.signal,
  });
  return rec;
}

async function watch(
  state: State,
  pointer: Pointer,
  options: Omit<WatchOptions, 'signal'> = {},
): Promise<Recorder> {
  const rec = recorder();
  await state.watch(pointer, (event) => rec.events.push(event), {
    ...options,
    signal: rec.controller.signal,
  });
  return rec;
}

/** A recorder of `watchKindAggregated`: `events` flattens the batches, `batches` keeps them. */
async function watchKindAggregated(
  state: State,
  options: Omit<WatchKindOptions, 'signal'> = {},
  kind: Kind = KIND,
): Promise<Recorder & { readonly batches: (readonly StateEvent[])[] }> {
  const rec = recorder();
  const batches: (readonly StateEvent[])[] = [];
  await state.watchKindAggregated(
    kind,
    (batch) => {
      batches.push(batch);
      rec.events.push(...batch);
    },
    { ...options, signal: rec.controller.signal },
  );
  return { ...rec, batches };
}

type KindWatcher = typeof watchKind;

/** Both ways to watch a kind, for tests that must hold for each. */
const KIND_WATCHERS: [string, KindWatcher][] = [
  ['watchKind', watchKind],
  ['watchKindAggregated', watchKindAggregated],
];

/** A promise and the function that resolves it. */
function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

async function listIds(state: State, options?: ListOptions, kind: Kind = KIND): Promise<string[]> {
  return (await state.list(kind, options)).map((r) => r.metadata.id);
}

export function describeStateConformance(
  name: string,
  factory: StateFactory,
  hooks: StateConformanceHooks = {},
): void {
  const settle = async (): Promise<void> => {
    await settleTurns();
    if (hooks.settle === undefined) return;
    await hooks.settle();
    await settleTurns();
  };
  describe(`State conformance: ${name}`, () => {
    let time = START;
    const clock = {
      now: (): number => time,
      advance: (ms: number): void => {
        time += ms;
      },
    };

    function setup(): State {
      time = START;
      return factory({ now: clock.now });
    }

    async function create(
      state: State,
      id: string,
      options: Parameters<typeof path>[1] & { owner?: string } = {},
    ): Promise<Resource<PathSpec>> {
      const { owner, ...rest } = options;
      return state.create(path(id, rest), owner === undefined ? {} : { owner });
    }

    describe('get and list', () => {
      it('get returns a created resource with its spec', async () => {
        const state = setup();
        await create(state, 'a');
        const got = await state.get<PathSpec>(ptr('a'));
        expect(got.spec).toEqual({ path: '/a' });
        expect(got.metadata).toMatchObject({ namespace: NS, type: TYPE, id: 'a', version: 1 });
      });

      it('get of a missing resource fails with a not-found error that carries the pointer', async () => {
        const state = setup();
        const error = await errorOf(state.get(ptr('missing')));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ code: 'not-found', pointer: ptr('missing') });
        expect(isConflict(error)).toBe(false);
      });

      it('list returns the resources of a kind sorted by id, whatever the creation order', async () => {
        const state = setup();
        for (const id of ['c', 'a', 'b10', 'b2']) await create(state, id);
        expect(await listIds(state)).toEqual(['a', 'b10', 'b2', 'c']);
      });

      it('list of a kind with no resources is empty', async () => {
        const state = setup();
        expect(await state.list(KIND)).toEqual([]);
      });

      it('list returns only resources of the given type', async () => {
        const state = setup();
        await create(state, 'a');
        await create(state, 'b', { type: OTHER_TYPE });
        expect(await listIds(state)).toEqual(['a']);
        expect(await listIds(state, {}, { namespace: NS, type: OTHER_TYPE })).toEqual(['b']);
      });

      it('list no longer returns a destroyed resource', async () => {
        const state = setup();
        await create(state, 'a');
        await create(state, 'b');
        await state.destroy(ptr('a'));
        expect(await listIds(state)).toEqual(['b']);
      });
    });

    describe('namespaces', () => {
      it('keeps resources with the same type and id in different namespaces apart', async () => {
        const state = setup();
        await create(state, 'a', { namespace: 'one' });
        await create(state, 'a', { namespace: 'two' });
        await state.modify(path('a', { namespace: 'two' }), (draft) => {
          draft.spec.size = 2;
        });
        expect((await state.get<PathSpec>(ptr('a', 'one'))).spec.size).toBeUndefined();
        expect((await state.get<PathSpec>(ptr('a', 'two'))).spec.size).toBe(2);
      });

      it('lists only the resources of the given namespace', async () => {
        const state = setup();
        await create(state, 'a', { namespace: 'one' });
        await create(state, 'b', { namespace: 'two' });
        expect(await listIds(state, {}, { namespace: 'one', type: TYPE })).toEqual(['a']);
      });

      it('destroying a resource leaves its namesake in another namespace alone', async () => {
        const state = setup();
        await create(state, 'a', { namespace: 'one' });
        await create(state, 'a', { namespace: 'two' });
        await state.destroy(ptr('a', 'one'));
        await expectNotFound(state.get(ptr('a', 'one')));
        expect((await state.get(ptr('a', 'two'))).metadata.version).toBe(1);
      });

      /** `namespace/id` of each resource event, `bootstrapped` for that marker. */
      const where = (events: readonly StateEvent[]): string[] =>
        events.map((e) =>
          e.type === 'created' || e.type === 'updated' || e.type === 'destroyed'
            ? `${e.type}:${e.resource.metadata.namespace}/${e.resource.metadata.id}`
            : e.type,
        );
      const ALL: Kind = { namespace: ALL_NAMESPACES, type: TYPE };

      it('list of ALL_NAMESPACES returns the type in every namespace, by namespace, then id', async () => {
        const state = setup();
        await create(state, 'b', { namespace: 'two' });
        await create(state, 'a', { namespace: 'two' });
        await create(state, 'c', { namespace: 'one', labels: { app: 'x' } });
        await create(state, 'd', { namespace: 'one', type: OTHER_TYPE });
        const listed = await state.list(ALL);
        expect(listed.map((r) => `${r.metadata.namespace}/${r.metadata.id}`)).toEqual([
          'one/c',
          'two/a',
          'two/b',
        ]);
        expect(
          await listIds(state, { labelQueries: [labelQuery(labelEqual('app', 'x'))] }, ALL),
        ).toEqual(['c']);
        expect(
          await state.list({ namespace: ALL_NAMESPACES, type: 'Nothing.test.cosi.dev' }),
        ).toEqual([]);
      });

      it('watchKind of ALL_NAMESPACES delivers the changes of the type in every namespace, one that appears later too', async () => {
        const state = setup();
        await create(state, 'old', { namespace: 'one' });
        const rec = await watchKind(state, {}, ALL);
        await create(state, 'a', { namespace: 'one' });
        await create(state, 'b', { namespace: 'new' });
        await create(state, 'c', { namespace: 'new', type: OTHER_TYPE });
        await state.modify(path('b', { namespace: 'new' }), (d) => {
          d.spec.size = 1;
        });
        await state.destroy(ptr('old', 'one'));
        await settle();
        expect(where(rec.events)).toEqual([
          'created:one/a',
          'created:new/b',
          'updated:new/b',
          'destroyed:one/old',
        ]);
      });

      it('watchKind of ALL_NAMESPACES with bootstrap: the contents of every namespace, bootstrapped, then changes', async () => {
        const state = setup();
        await create(state, 'b', { namespace: 'two' });
        await create(state, 'a', { namespace: 'one' });
        const rec = await watchKind(state, { bootstrap: true }, ALL);
        await create(state, 'c', { namespace: 'three' });
        await settle();
        expect(where(rec.events)).toEqual([
          'created:one/a',
          'created:two/b',
          'bootstrapped',
          'created:three/c',
        ]);
        expect(rec.events[2]).toMatchObject({ type: 'bootstrapped', kind: ALL });
      });

      it('watches of ALL_NAMESPACES of two types each get their own type, and one that ends leaves the other', async () => {
        const state = setup();
        const paths = await watchKind(state, {}, ALL);
        await create(state, 'a', { namespace: 'one' });
        await create(state, 'f', { namespace: 'one', type: OTHER_TYPE });
        const files = await watchKind(
          state,
          { bootstrap: true },
          { namespace: ALL_NAMESPACES, type: OTHER_TYPE },
        );
        await create(state, 'g', { namespace: 'two', type: OTHER_TYPE });
        await settle();
        paths.stop();
        await create(state, 'h', { namespace: 'three', type: OTHER_TYPE });
        await create(state, 'b', { namespace: 'three' });
        await settle();
        expect(where(paths.events)).toEqual(['created:one/a']);
        expect(where(files.events)).toEqual([
          'created:one/f',
          'bootstrapped',
          'created:two/g',
          'created:three/h',
        ]);
      });

      it('watchKind of ALL_NAMESPACES refuses a tail or a bookmark: each namespace has a history of its own', async () => {
        const state = setup();
        await expect(state.watchKind(ALL, () => undefined, { tailEvents: 2 })).rejects.toThrow(
          /every namespace/,
        );
        await expect(
          state.watchKind(ALL, () => undefined, { bootstrapBookmark: true }),
        ).rejects.toThrow(/every namespace/);
      });

      it('watchKind does not deliver events of another namespace', async () => {
        const state = setup();
        const rec = await watchKind(state, {}, { namespace: 'one', type: TYPE });
        await create(state, 'a', { namespace: 'two' });
        await create(state, 'b', { namespace: 'one' });
        await settle();
        expect(rec.seen()).toEqual(['created:b@1']);
      });
    });

    describe('create', () => {
      it('stores a new resource at version 1, running, without owner', async () => {
        const state = setup();
        const stored = await create(state, 'a');
        expect(stored.metadata).toMatchObject({ version: 1, phase: 'running', owner: '' });
        expect(await state.get(ptr('a'))).toEqual(stored);
      });

      it('stamps the owner it is given', async () => {
        const state = setup();
        const stored = await create(state, 'a', { owner: 'ctrl' });
        expect(stored.metadata.owner).toBe('ctrl');
        expect((await state.get(ptr('a'))).metadata.owner).toBe('ctrl');
      });

      it('stamps created and updated from the injected clock', async () => {
        const state = setup();
        clock.advance(1234);
        const stored = await create(state, 'a');
        expect(stored.metadata.created).toBe(START + 1234);
        expect(stored.metadata.updated).toBe(START + 1234);
      });

      it('keeps labels, annotations and finalizers of the draft', async () => {
        const state = setup();
        const draft = path('a', { labels: { app: 'web' } });
        draft.metadata.annotations = { note: 'x' };
        draft.metadata.finalizers = ['f1'];
        const stored = await state.create(draft);
        expect(stored.metadata).toMatchObject({
          labels: { app: 'web' },
          annotations: { note: 'x' },
          finalizers: ['f1'],
        });
      });

      it('does not keep a reference to the caller draft', async () => {
        const state = setup();
        const draft = path('a');
        await state.create(draft);
        draft.spec.path = '/changed';
        draft.metadata.labels.app = 'changed';
        const got = await state.get<PathSpec>(ptr('a'));
        expect(got.spec.path).toBe('/a');
        expect(got.metadata.labels).toEqual({});
      });

      it('fails with an exists conflict that carries the pointer when the id is taken', async () => {
        const state = setup();
        await create(state, 'a');
        const error = await errorOf(state.create(path('a')));
        expect(isConflict(error)).toBe(true);
        expect(error).toMatchObject({ code: 'conflict', reason: 'exists', pointer: ptr('a') });
      });

      it('leaves the stored resource unchanged when it conflicts', async () => {
        const state = setup();
        await create(state, 'a');
        const draft = path('a');
        draft.spec.size = 99;
        await errorOf(state.create(draft, { owner: 'ctrl' }));
        const got = await state.get<PathSpec>(ptr('a'));
        expect(got.spec.size).toBeUndefined();
        expect(got.metadata.owner).toBe('');
      });

      it('can create an id again after it was destroyed, starting at version 1', async () => {
        const state = setup();
        await create(state, 'a');
        await state.modify(path('a'), (d) => {
          d.spec.size = 1;
        });
        await state.destroy(ptr('a'));
        expect((await create(state, 'a')).metadata.version).toBe(1);
      });

      it('refuses a resource in ALL_NAMESPACES, by create or modify: the name stands for every namespace', async () => {
        const state = setup();
        const writes = [
          state.create(path('a', { namespace: ALL_NAMESPACES })),
          state.modify(path('b', { namespace: ALL_NAMESPACES }), (draft) => {
            draft.spec.size = 1;
          }),
          state.modify(path('c', { namespace: ALL_NAMESPACES }), async (draft) => {
            await settle();
            draft.spec.size = 1;
          }),
        ];
        for (const write of writes) {
          const error = await errorOf(write);
          expect(error).toBeInstanceOf(TypeError);
          expect((error as Error).message).toContain(`namespace ${JSON.stringify(ALL_NAMESPACES)}`);
        }
        // Nothing stored: not in '*', so not in any list either.
        expect(await state.list({ namespace: ALL_NAMESPACES, type: TYPE })).toEqual([]);
        expect(await state.kinds()).toEqual([]);
      });
    });

    describe('update', () => {
      async function withSize(state: State, id: string, size: number): Promise<Draft<PathSpec>> {
        const draft = toDraft(await state.get<PathSpec>(ptr(id)));
        draft.spec.size = size;
        return draft;
      }

      it('writes the resource when the version equals the stored one, and bumps it by one', async () => {
        const state = setup();
        await create(state, 'a');
        const stored = await state.update(await withSize(state, 'a', 5));
        expect(stored.metadata.version).toBe(2);
        expect(stored.spec.size).toBe(5);
        expect(await state.get(ptr('a'))).toEqual(stored);
      });

      it('fails with a version conflict on a stale version', async () => {
        const state = setup();
        await create(state, 'a');
        const stale = await withSize(state, 'a', 1);
        await state.update(await withSize(state, 'a', 2));
        await expectConflict(state.update(stale), 'version');
        expect((await state.get<PathSpec>(ptr('a'))).spec.size).toBe(2);
      });

      it('fails with a version conflict on a future version', async () => {
        const state = setup();
        await create(state, 'a');
        const future = await withSize(state, 'a', 1);
        future.metadata.version = 2;
        await expectConflict(state.update(future), 'version');
        expect((await state.get(ptr('a'))).metadata.version).toBe(1);
      });

      it('fails with not-found when the resource does not exist', async () => {
        const state = setup();
        await expectNotFound(state.update(path('a')));
      });

      it('fails with an owner conflict when another owner writes', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        const error = await errorOf(
          state.update(await withSize(state, 'a', 1), { owner: 'other' }),
        );
        expect(isOwnerConflict(error)).toBe(true);
        expect(isConflict(error)).toBe(true);
      });

      it('fails with an owner conflict when a writer without owner updates an owned resource', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        expect(isOwnerConflict(await errorOf(state.update(await withSize(state, 'a', 1))))).toBe(
          true,
        );
      });

      it('lets the owner update its resource', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        const stored = await state.update(await withSize(state, 'a', 1), { owner: 'ctrl' });
        expect(stored.metadata).toMatchObject({ version: 2, owner: 'ctrl' });
      });

      it('fails with a phase conflict when the resource is tearing down', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardown(ptr('a'));
        const error = await errorOf(state.update(await withSize(state, 'a', 1)));
        expect(isPhaseConflict(error)).toBe(true);
        expect(isConflict(error)).toBe(true);
      });

      it('updates a tearing-down resource when the expected phase is tearingDown', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardown(ptr('a'));
        const stored = await state.update(await withSize(state, 'a', 1), {
          expectedPhase: 'tearingDown',
        });
        expect(stored.metadata).toMatchObject({ version: 3, phase: 'tearingDown' });
      });

      it('fails with a phase conflict on a running resource when tearingDown is expected', async () => {
        const state = setup();
        await create(state, 'a');
        const error = await errorOf(
          state.update(await withSize(state, 'a', 1), { expectedPhase: 'tearingDown' }),
        );
        expect(isPhaseConflict(error)).toBe(true);
      });

      it('updates in any phase when the expected phase is any', async () => {
        const state = setup();
        await create(state, 'a');
        await state.update(await withSize(state, 'a', 1), { expectedPhase: 'any' });
        await state.teardown(ptr('a'));
        const stored = await state.update(await withSize(state, 'a', 2), { expectedPhase: 'any' });
        expect(stored.spec.size).toBe(2);
      });

      it('keeps created and stamps updated from the clock', async () => {
        const state = setup();
        await create(state, 'a');
        clock.advance(500);
        const stored = await state.update(await withSize(state, 'a', 1));
        expect(stored.metadata.created).toBe(START);
        expect(stored.metadata.updated).toBe(START + 500);
      });
    });

    describe('updateWithConflicts', () => {
      it('applies the function to a draft and writes the result', async () => {
        const state = setup();
        await create(state, 'a');
        const stored = await state.updateWithConflicts<PathSpec>(ptr('a'), (draft) => {
          draft.spec.size = 7;
        });
        expect(stored.metadata.version).toBe(2);
        expect((await state.get<PathSpec>(ptr('a'))).spec.size).toBe(7);
      });

      it('does not write when the function changes nothing', async () => {
        const state = setup();
        await create(state, 'a');
        const rec = await watch(state, ptr('a'));
        const result = await state.updateWithConflicts(ptr('a'), () => undefined);
        await settle();
        expect(result.metadata.version).toBe(1);
        expect((await state.get(ptr('a'))).metadata.version).toBe(1);
        expect(rec.seen()).toEqual(['created:a@1']);
      });

      it('fails with a phase conflict on a tearing-down resource even when nothing changes', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardown(ptr('a'));
        expect(
          isPhaseConflict(await errorOf(state.updateWithConflicts(ptr('a'), () => undefined))),
        ).toBe(true);
      });

      it('does not call the function when the phase conflicts', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardown(ptr('a'));
        let calls = 0;
        await errorOf(
          state.updateWithConflicts(ptr('a'), () => {
            calls++;
          }),
        );
        expect(calls).toBe(0);
      });

      it('retries with a fresh draft when a concurrent writer bumps the version meanwhile', async () => {
        const state = setup();
        await create(state, 'a');
        let calls = 0;
        const stored = await state.updateWithConflicts<PathSpec>(ptr('a'), async (draft) => {
          calls++;
          if (calls === 1) {
            await state.modify(path('a'), (other) => {
              other.metadata.labels.other = 'yes';
            });
          }
          draft.spec.size = 3;
        });
        expect(calls).toBe(2);
        expect(stored.metadata.version).toBe(3);
        expect(stored.spec.size).toBe(3);
        expect(stored.metadata.labels).toEqual({ other: 'yes' });
      });

      it('does not retry an owner conflict', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        let calls = 0;
        const error = await errorOf(
          state.updateWithConflicts<PathSpec>(
            ptr('a'),
            (draft) => {
              calls++;
              draft.spec.size = 1;
            },
            { owner: 'other' },
          ),
        );
        expect(isOwnerConflict(error)).toBe(true);
        expect(calls).toBe(1);
      });

      it('fails with not-found when the resource does not exist', async () => {
        const state = setup();
        await expectNotFound(state.updateWithConflicts(ptr('a'), () => undefined));
      });

      /** `fn` through updateWithConflicts and through modify: a TypeError, and `a` as it was. */
      async function expectUpdaterRejected(
        state: State,
        fn: (draft: Draft<PathSpec>) => void,
        message: string,
      ): Promise<void> {
        const a = await state.get(ptr('a'));
        for (const write of [
          () => state.updateWithConflicts<PathSpec>(ptr('a'), fn),
          () => state.modify<PathSpec>(path('a'), fn),
        ]) {
          const error = await errorOf(write());
          expect(error).toBeInstanceOf(TypeError);
          expect((error as Error).message).toContain(message);
          expect(await state.get(ptr('a'))).toEqual(a);
        }
      }

      it('rejects, and writes nothing, when the function changes its draft version', async () => {
        const state = setup();
        await create(state, 'a');
        await expectUpdaterRejected(
          state,
          (draft) => {
            draft.metadata.version = 99;
            draft.spec.size = 7;
          },
          'version from 1 to 99',
        );
      });

      it('rejects, and writes nothing, when the function renames its draft', async () => {
        const state = setup();
        await create(state, 'a');
        const b = await create(state, 'b');
        await expectUpdaterRejected(
          state,
          (draft) => {
            draft.metadata.id = 'b';
            draft.spec.size = 7;
          },
          '(default/a) changed which resource',
        );
        expect(await state.get(ptr('b'))).toEqual(b);
      });

      it('rejects with the error of the function and writes nothing', async () => {
        const state = setup();
        await create(state, 'a');
        const boom = new Error('boom');
        const error = await errorOf(
          state.updateWithConflicts<PathSpec>(ptr('a'), (draft) => {
            draft.spec.size = 1;
            throw boom;
          }),
        );
        expect(error).toBe(boom);
        expect((await state.get(ptr('a'))).metadata.version).toBe(1);
      });
    });

    describe('modify and modifyWithResult', () => {
      it('creates a missing resource from the empty draft after applying the function', async () => {
        const state = setup();
        await state.modify(path('a'), (draft) => {
          draft.spec.size = 4;
        });
        const got = await state.get<PathSpec>(ptr('a'));
        expect(got.metadata.version).toBe(1);
        expect(got.spec).toEqual({ path: '/a', size: 4 });
      });

      it('refuses, and creates nothing, when the function renames the draft of a new resource', async () => {
        const state = setup();
        const taken = await create(state, 'taken', { owner: 'other' });
        const renames: ((draft: Draft<PathSpec>) => void | Promise<void>)[] = [
          (draft) => {
            draft.metadata.id = 'taken';
          },
          (draft) => {
            draft.metadata.type = OTHER_TYPE;
          },
          async (draft) => {
            await settle();
            draft.metadata.namespace = 'elsewhere';
          },
        ];
        for (const rename of renames) {
          const error = await errorOf(
            state.modify<PathSpec>(path('new'), rename, { owner: 'ctrl' }),
          );
          expect(error).toBeInstanceOf(TypeError);
          expect((error as Error).message).toContain('(default/new) changed which resource');
        }
        // Nothing written: not the resource asked for, not the one named, not the one overwritten.
        expect(await state.get(ptr('taken'))).toEqual(taken);
        await expectNotFound(state.get(ptr('new')));
        expect(await state.list({ namespace: NS, type: OTHER_TYPE })).toEqual([]);
        expect(await state.list({ namespace: 'elsewhere', type: TYPE })).toEqual([]);
      });

      it('creates a missing resource with the owner of the options', async () => {
        const state = setup();
        const stored = await state.modifyWithResult(path('a'), () => undefined, { owner: 'ctrl' });
        expect(stored.metadata).toMatchObject({ version: 1, owner: 'ctrl' });
      });

      it('updates an existing resource from a draft of the stored one', async () => {
        const state = setup();
        await create(state, 'a');
        await state.modify(path('a'), (draft) => {
          draft.spec.size = 1;
        });
        const stored = await state.modifyWithResult<PathSpec>(path('a'), (draft) => {
          draft.spec.size = (draft.spec.size ?? 0) + 1;
        });
        expect(stored.metadata.version).toBe(3);
        expect(stored.spec.size).toBe(2);
      });

      it('returns the stored resource', async () => {
        const state = setup();
        const stored = await state.modifyWithResult<PathSpec>(path('a'), (draft) => {
          draft.metadata.labels.app = 'web';
        });
        expect(await state.get(ptr('a'))).toEqual(stored);
      });

      it('does not write when the function changes nothing', async () => {
        const state = setup();
        await create(state, 'a');
        const rec = await watchKind(state);
        const stored = await state.modifyWithResult(path('a'), () => undefined);
        await settle();
        expect(stored.metadata.version).toBe(1);
        expect(rec.events).toEqual([]);
      });

      it('fails with a phase conflict on a tearing-down resource even when nothing changes', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardown(ptr('a'));
        expect(isPhaseConflict(await errorOf(state.modify(path('a'), () => undefined)))).toBe(true);
      });

      it('updates a tearing-down resource when any phase is expected', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardown(ptr('a'));
        const stored = await state.modifyWithResult<PathSpec>(
          path('a'),
          (draft) => {
            draft.spec.size = 2;
          },
          { expectedPhase: 'any' },
        );
        expect(stored.metadata).toMatchObject({ phase: 'tearingDown', version: 3 });
        expect(stored.spec.size).toBe(2);
      });

      it('fails with an owner conflict when it changes a resource of another owner', async () => {
        const state = setup();
        await state.modify(path('a'), () => undefined, { owner: 'ctrl' });
        const error = await errorOf(
          state.modify(path('a'), (draft) => {
            draft.spec.size = 1;
          }),
        );
        expect(isOwnerConflict(error)).toBe(true);
      });

      it('lets the owner change its own resource', async () => {
        const state = setup();
        await state.modify(path('a'), () => undefined, { owner: 'ctrl' });
        const stored = await state.modifyWithResult<PathSpec>(
          path('a'),
          (draft) => {
            draft.spec.size = 1;
          },
          { owner: 'ctrl' },
        );
        expect(stored.metadata).toMatchObject({ owner: 'ctrl', version: 2 });
      });

      it('updates instead when someone creates the resource while the function runs', async () => {
        const state = setup();
        let calls = 0;
        const stored = await state.modifyWithResult<PathSpec>(path('a'), async (draft) => {
          calls++;
          if (calls === 1) {
            const other = path('a');
            other.metadata.labels.by = 'other';
            await state.create(other);
          }
          draft.spec.size = 9;
        });
        expect(calls).toBe(2);
        expect(stored.metadata.version).toBe(2);
        expect(stored.metadata.labels).toEqual({ by: 'other' });
        expect(stored.spec.size).toBe(9);
      });

      it('retries when a concurrent writer bumps the version while the function runs', async () => {
        const state = setup();
        await create(state, 'a');
        let calls = 0;
        await state.modify<PathSpec>(path('a'), async (draft) => {
          calls++;
          if (calls === 1) await state.addFinalizer(ptr('a'), 'f');
          draft.spec.size = 1;
        });
        const got = await state.get<PathSpec>(ptr('a'));
        expect(calls).toBe(2);
        expect(got.metadata.finalizers).toEqual(['f']);
        expect(got.spec.size).toBe(1);
      });

      it('leaves the empty draft it was given untouched', async () => {
        const state = setup();
        const empty = path('a');
        await state.modify(empty, (draft) => {
          draft.spec.size = 1;
        });
        expect(empty.spec).toEqual({ path: '/a' });
        expect(empty.metadata.version).toBe(0);
      });
    });

    describe('generation', () => {
      const gen = async (state: State, id = 'a'): Promise<number> =>
        (await state.get(ptr(id))).metadata.generation;

      it('starts at 1, also for a resource made again after it was destroyed', async () => {
        const state = setup();
        expect((await create(state, 'a')).metadata.generation).toBe(1);
        await state.modify(path('a'), (d) => {
          d.spec.size = 1;
        });
        await state.teardown(ptr('a'));
        await state.destroy(ptr('a'));
        expect((await create(state, 'a')).metadata.generation).toBe(1);
      });

      it('counts changes of the spec, in update and in modify', async () => {
        const state = setup();
        const created = await create(state, 'a');
        const draft = toDraft(created);
        draft.spec.size = 2;
        expect((await state.update(draft)).metadata.generation).toBe(2);
        await state.modify(path('a'), (d) => {
          d.spec.path = '/elsewhere';
        });
        expect(await gen(state)).toBe(3);
      });

      it('keeps it on writes of metadata alone: labels, annotations, finalizers', async () => {
        const state = setup();
        await create(state, 'a');
        await state.modify(path('a'), (d) => {
          d.metadata.labels = { tier: 'gold' };
          d.metadata.annotations = { note: 'x' };
        });
        await state.addFinalizer(ptr('a'), 'f');
        await state.removeFinalizer(ptr('a'), 'f');
        const stored = await state.get(ptr('a'));
        expect(stored.metadata).toMatchObject({ version: 4, generation: 1 });
      });

      it('keeps it when only the top-level status changes (the status subresource rule)', async () => {
        const state = setup();
        await state.create(newResource(ptr('k'), { spec: { replicas: 1 } }));
        await state.modify(newResource<Record<string, unknown>>(ptr('k'), {}), (d) => {
          d.spec.status = { ready: 1 };
        });
        expect(await gen(state, 'k')).toBe(1);
        await state.modify(newResource<Record<string, unknown>>(ptr('k'), {}), (d) => {
          d.spec.spec = { replicas: 2 };
        });
        expect(await gen(state, 'k')).toBe(2);
      });

      it('counts the start of a teardown once, as the API server counts deletionTimestamp', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f');
        await state.teardown(ptr('a'));
        await state.teardown(ptr('a'));
        expect(await gen(state)).toBe(2);
      });
    });

    describe('teardown', () => {
      it('moves a resource to tearingDown and answers true when it has no finalizers', async () => {
        const state = setup();
        await create(state, 'a');
        expect(await state.teardown(ptr('a'))).toBe(true);
        expect((await state.get(ptr('a'))).metadata).toMatchObject({
          phase: 'tearingDown',
          version: 2,
        });
      });

      it('answers false while finalizers remain', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f');
        expect(await state.teardown(ptr('a'))).toBe(false);
      });

      it('is idempotent: a second teardown writes nothing and gives the same answer', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f');
        await state.teardown(ptr('a'));
        expect(await state.teardown(ptr('a'))).toBe(false);
        expect((await state.get(ptr('a'))).metadata.version).toBe(3);
      });

      it('answers true once the finalizers have been removed', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f');
        await state.teardown(ptr('a'));
        await state.removeFinalizer(ptr('a'), 'f');
        expect(await state.teardown(ptr('a'))).toBe(true);
      });

      it('fails with an owner conflict for another owner', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        expect(isOwnerConflict(await errorOf(state.teardown(ptr('a'), { owner: 'other' })))).toBe(
          true,
        );
        expect((await state.get(ptr('a'))).metadata.phase).toBe('running');
      });

      it('lets the owner tear down its resource', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        expect(await state.teardown(ptr('a'), { owner: 'ctrl' })).toBe(true);
      });

      it('fails with not-found when the resource does not exist', async () => {
        const state = setup();
        await expectNotFound(state.teardown(ptr('a')));
      });
    });

    describe('destroy', () => {
      it('removes a resource without finalizers, even while it is running', async () => {
        const state = setup();
        await create(state, 'a');
        await state.destroy(ptr('a'));
        await expectNotFound(state.get(ptr('a')));
      });

      it('fails with a pending-finalizers conflict while finalizers remain, keeping the resource', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f');
        await state.teardown(ptr('a'));
        await expectConflict(state.destroy(ptr('a')), 'pending-finalizers');
        expect((await state.get(ptr('a'))).metadata.finalizers).toEqual(['f']);
      });

      it('fails with an owner conflict for another owner', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        expect(isOwnerConflict(await errorOf(state.destroy(ptr('a'))))).toBe(true);
        expect((await state.get(ptr('a'))).metadata.version).toBe(1);
      });

      it('lets the owner destroy its resource', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        await state.destroy(ptr('a'), { owner: 'ctrl' });
        await expectNotFound(state.get(ptr('a')));
      });

      it('fails with not-found when the resource does not exist', async () => {
        const state = setup();
        await expectNotFound(state.destroy(ptr('a')));
      });

      it('fails with not-found for all but one of several destroys of the same resource', async () => {
        const state = setup();
        await create(state, 'a');
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, () => state.destroy(ptr('a'))),
        );
        const failures = results.filter((r) => r.status === 'rejected');
        expect(results.length - failures.length).toBe(1);
        for (const f of failures) expect(isNotFound(f.reason)).toBe(true);
      });
    });

    describe('finalizers', () => {
      it('addFinalizer adds finalizers and bumps the version', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f1', 'f2');
        expect((await state.get(ptr('a'))).metadata).toMatchObject({
          finalizers: ['f1', 'f2'],
          version: 2,
        });
      });

      it('addFinalizer of a finalizer already present writes nothing', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f1');
        await state.addFinalizer(ptr('a'), 'f1');
        expect((await state.get(ptr('a'))).metadata).toMatchObject({
          finalizers: ['f1'],
          version: 2,
        });
      });

      it('addFinalizer works on a tearing-down resource', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardown(ptr('a'));
        await state.addFinalizer(ptr('a'), 'f1');
        expect((await state.get(ptr('a'))).metadata.finalizers).toEqual(['f1']);
      });

      it('addFinalizer works on a resource owned by someone else', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        await state.addFinalizer(ptr('a'), 'f1');
        expect((await state.get(ptr('a'))).metadata).toMatchObject({
          finalizers: ['f1'],
          owner: 'ctrl',
        });
      });

      it('removeFinalizer removes only the named finalizers', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f1', 'f2', 'f3');
        await state.removeFinalizer(ptr('a'), 'f1', 'f3');
        expect((await state.get(ptr('a'))).metadata.finalizers).toEqual(['f2']);
      });

      it('removeFinalizer of a finalizer that is absent writes nothing', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f1');
        await state.removeFinalizer(ptr('a'), 'nope');
        expect((await state.get(ptr('a'))).metadata).toMatchObject({
          finalizers: ['f1'],
          version: 2,
        });
      });

      it('removeFinalizer works on a tearing-down resource owned by someone else', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        await state.addFinalizer(ptr('a'), 'f1');
        await state.teardown(ptr('a'), { owner: 'ctrl' });
        await state.removeFinalizer(ptr('a'), 'f1');
        expect((await state.get(ptr('a'))).metadata).toMatchObject({
          finalizers: [],
          phase: 'tearingDown',
        });
      });

      it('addFinalizer and removeFinalizer fail with not-found when the resource does not exist', async () => {
        const state = setup();
        await expectNotFound(state.addFinalizer(ptr('a'), 'f'));
        await expectNotFound(state.removeFinalizer(ptr('a'), 'f'));
      });
    });

    describe('teardownAndDestroy', () => {
      it('destroys a resource without finalizers at once', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardownAndDestroy(ptr('a'));
        await expectNotFound(state.get(ptr('a')));
      });

      it('waits while finalizers remain and destroys once someone else removes them', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f1', 'f2');
        let done = false;
        const pending = state.teardownAndDestroy(ptr('a')).then(() => {
          done = true;
        });
        await settle();
        expect(done).toBe(false);
        expect((await state.get(ptr('a'))).metadata.phase).toBe('tearingDown');
        await state.removeFinalizer(ptr('a'), 'f1');
        await settle();
        expect(done).toBe(false);
        await state.removeFinalizer(ptr('a'), 'f2');
        await pending;
        await expectNotFound(state.get(ptr('a')));
      });

      it('returns when a concurrent teardownAndDestroy destroys the resource first', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f');
        const first = state.teardownAndDestroy(ptr('a'));
        const second = state.teardownAndDestroy(ptr('a'));
        await settle();
        await state.removeFinalizer(ptr('a'), 'f');
        await Promise.all([first, second]);
        await expectNotFound(state.get(ptr('a')));
      });

      it('returns when a finalizer holder removes its finalizer and destroys the resource itself', async () => {
        const state = setup();
        await create(state, 'a');
        await state.addFinalizer(ptr('a'), 'f');
        const holderDone = state.watch(ptr('a'), (event) => {
          if (event.type === 'updated' && event.resource.metadata.phase === 'tearingDown') {
            void state
              .removeFinalizer(ptr('a'), 'f')
              .then(() => state.destroy(ptr('a')))
              .catch(() => undefined);
          }
        });
        await holderDone;
        await state.teardownAndDestroy(ptr('a'));
        await settle();
        await expectNotFound(state.get(ptr('a')));
      });

      it('fails with an owner conflict for another owner', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        expect(isOwnerConflict(await errorOf(state.teardownAndDestroy(ptr('a'))))).toBe(true);
        expect((await state.get(ptr('a'))).metadata.phase).toBe('running');
      });

      it('lets the owner tear down and destroy its resource', async () => {
        const state = setup();
        await create(state, 'a', { owner: 'ctrl' });
        await state.teardownAndDestroy(ptr('a'), { owner: 'ctrl' });
        await expectNotFound(state.get(ptr('a')));
      });

      it('destroys a resource that is already tearing down', async () => {
        const state = setup();
        await create(state, 'a');
        await state.teardown(ptr('a'));
        await state.teardownAndDestroy(ptr('a'));
        await expectNotFound(state.get(ptr('a')));
      });

      it('fails with not-found when the resource does not exist', async () => {
        const state = setup();
        await expectNotFound(state.teardownAndDestroy(ptr('a')));
      });
    });

    describe('label queries', () => {
      async function labelled(): Promise<State> {
        const state = setup();
        await create(state, 'app1', { labels: { app: 'app1', frozen: '', weight: '10k' } });
        await create(state, 'app2', { labels: { app: 'app2', frozen: '', weight: '20Ki' } });
        await create(state, 'app3', { labels: { app: 'app3', weight: '2M' } });
        await create(state, 'app4', { labels: { app: 'app4', weight: '1Mi' } });
        await create(state, 'bare');
        return state;
      }

      const query = (...queries: LabelQuery[]): ListOptions => ({ labelQueries: queries });

      it('exists matches resources that have the label, whatever its value', async () => {
        const state = await labelled();
        expect(await listIds(state, query(labelQuery(labelExists('frozen'))))).toEqual([
          'app1',
          'app2',
        ]);
      });

      it('equal matches the exact value', async () => {
        const state = await labelled();
        expect(await listIds(state, query(labelQuery(labelEqual('app', 'app3'))))).toEqual([
          'app3',
        ]);
      });

      it('in matches any of the values', async () => {
        const state = await labelled();
        expect(await listIds(state, query(labelQuery(labelIn('app', ['app2', 'app4']))))).toEqual([
          'app2',
          'app4',
        ]);
      });

      it('lt and lte compare values as strings', async () => {
        const state = await labelled();
        expect(await listIds(state, query(labelQuery(labelLT('app', 'app2'))))).toEqual(['app1']);
        expect(await listIds(state, query(labelQuery(labelLTE('app', 'app2'))))).toEqual([
          'app1',
          'app2',
        ]);
      });

      it('ltNumeric compares numbers with decimal and binary units', async () => {
        const state = await labelled();
        // 10k = 10000, 20Ki = 20480, 2M = 2000000, 1Mi = 1048576
        expect(await listIds(state, query(labelQuery(labelLTNumeric('weight', '20480'))))).toEqual([
          'app1',
        ]);
        expect(await listIds(state, query(labelQuery(labelLTNumeric('weight', '1M'))))).toEqual([
          'app1',
          'app2',
        ]);
      });

      it('lteNumeric includes equal numbers written with different units', async () => {
        const state = await labelled();
        expect(await listIds(state, query(labelQuery(labelLTENumeric('weight', '20Ki'))))).toEqual([
          'app1',
          'app2',
        ]);
        expect(
          await listIds(state, query(labelQuery(labelLTENumeric('weight', '1048576')))),
        ).toEqual(['app1', 'app2', 'app4']);
      });

      it('terms inside one query are AND-ed', async () => {
        const state = await labelled();
        expect(
          await listIds(state, query(labelQuery(labelExists('frozen'), labelEqual('app', 'app2')))),
        ).toEqual(['app2']);
        expect(
          await listIds(state, query(labelQuery(labelExists('frozen'), labelEqual('app', 'app3')))),
        ).toEqual([]);
      });

      it('several queries are OR-ed', async () => {
        const state = await labelled();
        expect(
          await listIds(
            state,
            query(labelQuery(labelEqual('app', 'app3')), labelQuery(labelEqual('app', 'app1'))),
          ),
        ).toEqual(['app1', 'app3']);
      });

      it('an empty list of queries matches everything', async () => {
        const state = await labelled();
        expect(await listIds(state, query())).toEqual(['app1', 'app2', 'app3', 'app4', 'bare']);
      });

      it('not inverts a term, and a missing label then matches', async () => {
        const state = await labelled();
        expect(
          await listIds(state, query(labelQuery(notMatches(labelEqual('app', 'app1'))))),
        ).toEqual(['app2', 'app3', 'app4', 'bare']);
        expect(await listIds(state, query(labelQuery(notMatches(labelExists('frozen')))))).toEqual([
          'app3',
          'app4',
          'bare',
        ]);
        expect(
          await listIds(state, query(labelQuery(notMatches(labelIn('app', ['app1']))))),
        ).toEqual(['app2', 'app3', 'app4', 'bare']);
      });

      it('a missing label never matches the less-than family, even inverted', async () => {
        const state = await labelled();
        for (const term of [
          labelLT('missing', 'z'),
          labelLTE('missing', 'z'),
          labelLTNumeric('missing', '1'),
          labelLTENumeric('missing', '1'),
        ]) {
          expect(await listIds(state, query(labelQuery(term)))).toEqual([]);
          expect(await listIds(state, query(labelQuery(notMatches(term))))).toEqual([]);
        }
      });

      it('an unparsable number never matches the numeric comparisons, even inverted', async () => {
        const state = await labelled();
        expect(await listIds(state, query(labelQuery(labelLTNumeric('app', '100'))))).toEqual([]);
        expect(
          await listIds(state, query(labelQuery(notMatches(labelLTNumeric('app', '100'))))),
        ).toEqual([]);
        expect(
          await listIds(state, query(labelQuery(notMatches(labelLTENumeric('weight', 'heavy'))))),
        ).toEqual([]);
      });

      it('inverted numeric comparisons match the parsable values that are not less', async () => {
        const state = await labelled();
        expect(
          await listIds(state, query(labelQuery(notMatches(labelLTNumeric('weight', '20Ki'))))),
        ).toEqual(['app2', 'app3', 'app4']);
      });

      it('an id regexp selects ids', async () => {
        const state = setup();
        for (let i = 0; i < 10; i++) await create(state, `idquery/path${i}`);
        await create(state, 'other/path3');
        expect(await listIds(state, { idQuery: idRegexp(/^idquery\/.+[2-4]$/) })).toEqual([
          'idquery/path2',
          'idquery/path3',
          'idquery/path4',
        ]);
      });

      it('an id regexp and a label query must both hold', async () => {
        const state = await labelled();
        expect(
          await listIds(state, {
            idQuery: idRegexp('^app[1-3]$'),
            labelQueries: [labelQuery(labelExists('frozen'))],
          }),
        ).toEqual(['app1', 'app2']);
      });

      it('watchKind bootstraps and filters with the same label semantics as list', async () => {
        const state = await labelled();
        const rec = await watchKind(state, {
          bootstrap: true,
          labelQueries: [labelQuery(notMatches(labelLTNumeric('weight', '1M')))],
        });
        await create(state, 'app5', { labels: { weight: '5G' } });
        await create(state, 'app6', { labels: { weight: '5' } });
        await create(state, 'app7');
        await settle();
        expect(rec.seen()).toEqual([
          'created:app3@1',
          'created:app4@1',
          'bootstrapped',
          'created:app5@1',
        ]);
      });
    });

    describe('label equality and owner queries (what a backend answers from an index)', () => {
      // Enough resources that a backend with an index takes its narrow path for one value.
      const COUNT = 120;
      const id = (i: number): string => `vm-${String((i * 37) % COUNT).padStart(2, '0')}`;
      const owner = (i: number): string | undefined => (i % 2 === 0 ? 'Placer' : undefined);

      async function placed(): Promise<State> {
        const state = setup();
        for (let i = 0; i < COUNT; i++) {
          const o = owner(i);
          await create(state, id(i), {
            labels: { host: `h${i % 12}` },
            ...(o ? { owner: o } : {}),
          });
        }
        return state;
      }

      /** What a scan of the whole kind says. */
      async function scanned(state: State, keep: (r: Resource) => boolean): Promise<string[]> {
        return (await state.list(KIND)).filter(keep).map((r) => r.metadata.id);
      }

      const onHost = (host: string): ListOptions => ({
        labelQueries: [labelQuery(labelEqual('host', host))],
      });

      it('returns, sorted by id, the resources with the value, and follows every write', async () => {
        const state = await placed();
        const hostIs = (h: string) => (r: Resource) => r.metadata.labels.host === h;
        expect(await listIds(state, onHost('h1'))).toEqual(await scanned(state, hostIs('h1')));
        expect(await listIds(state, onHost('h1'))).toHaveLength(COUNT / 12);

        // Moved, unlabelled, destroyed, created: after each write the query agrees with a scan.
        const [first, second, third] = await listIds(state, onHost('h1'));
        await state.updateWithConflicts(
          ptr(first!),
          (d) => {
            d.metadata.labels.host = 'h2';
          },
          { owner: (await state.get(ptr(first!))).metadata.owner },
        );
        await state.updateWithConflicts(
          ptr(second!),
          (d) => {
            delete d.metadata.labels.host;
          },
          { owner: (await state.get(ptr(second!))).metadata.owner },
        );
        await state.destroy(ptr(third!), { owner: (await state.get(ptr(third!))).metadata.owner });
        await create(state, 'a-new', { labels: { host: 'h1' } });
        for (const h of ['h1', 'h2', 'h9']) {
          expect(await listIds(state, onHost(h))).toEqual(await scanned(state, hostIs(h)));
        }
        expect(await listIds(state, onHost('h1'))).toContain('a-new');
        expect(await listIds(state, onHost('h1'))).not.toContain(first);
        expect(await listIds(state, onHost('h2'))).toContain(first);
      });

      it('combines indexed terms with the other terms, queries and filters', async () => {
        const state = await placed();
        const ids = await listIds(state, {
          labelQueries: [
            labelQuery(labelIn('host', ['h0', 'h3']), notMatches(labelEqual('host', 'h3'))),
            labelQuery(labelEqual('host', 'h5')),
          ],
          idQuery: idRegexp('[0-4]$'),
        });
        expect(ids).toEqual(
          await scanned(
            state,
            (r) =>
              ['h0', 'h5'].includes(r.metadata.labels.host ?? '') && /[0-4]$/.test(r.metadata.id),
          ),
        );
        expect(ids.length).toBeGreaterThan(0);
      });

      it("owner keeps what that controller wrote; an empty owner keeps the users' resources", async () => {
        const state = await placed();
        expect(await listIds(state, { owner: 'Placer' })).toEqual(
          await scanned(state, (r) => r.metadata.owner === 'Placer'),
        );
        expect(await listIds(state, { owner: '' })).toHaveLength(COUNT / 2);
        expect(await listIds(state, { owner: 'Nobody' })).toEqual([]);
        expect(await listIds(state, { owner: 'Placer', ...onHost('h2') })).toEqual(
          await scanned(
            state,
            (r) => r.metadata.owner === 'Placer' && r.metadata.labels.host === 'h2',
          ),
        );
        const [gone] = await listIds(state, { owner: 'Placer' });
        await state.destroy(ptr(gone!), { owner: 'Placer' });
        expect(await listIds(state, { owner: 'Placer' })).not.toContain(gone);
      });

      it('watchKind filters by owner as list does', async () => {
        const state = setup();
        const rec = await watchKind(state, { bootstrap: true, owner: 'Placer' });
        await create(state, 'mine', { owner: 'Placer' });
        await create(state, 'theirs', { owner: 'Other' });
        await create(state, 'users');
        await settle();
        expect(rec.seen()).toEqual(['bootstrapped', 'created:mine@1']);
      });
    });

    describe('watch', () => {
      it('first delivers the current state of an existing resource as created', async () => {
        const state = setup();
        const stored = await create(state, 'a');
        const rec = await watch(state, ptr('a'));
        await settle();
        expect(rec.events).toEqual([{ type: 'created', resource: stored }]);
      });

      it('first delivers a destroyed tombstone for a missing resource', async () => {
        const state = setup();
        const rec = await watch(state, ptr('a'));
        await settle();
        expect(rec.events).toHaveLength(1);
        const [event] = rec.events;
        expect(event?.type).toBe('destroyed');
        if (event?.type !== 'destroyed') return;
        expect(isTombstone(event.resource)).toBe(true);
        expect(event.resource.metadata).toMatchObject(ptr('a'));
      });

      it('then delivers every change of the resource in order', async () => {
        const state = setup();
        const rec = await watch(state, ptr('a'));
        await create(state, 'a');
        await state.modify(path('a'), (d) => {
          d.spec.size = 1;
        });
        await state.addFinalizer(ptr('a'), 'f');
        await state.teardown(ptr('a'));
        await state.removeFinalizer(ptr('a'), 'f');
        await state.destroy(ptr('a'));
        await settle();
        expect(rec.seen()).toEqual([
          'destroyed:a@0',
          'created:a@1',
          'updated:a@2',
          'updated:a@3',
          'updated:a@4',
          'updated:a@5',
          'destroyed:a@5',
        ]);
      });

      it('delivers updates with the previous state as old', async () => {
        const state = setup();
        const before = await create(state, 'a');
        const rec = await watch(state, ptr('a'));
        const after = await state.modifyWithResult<PathSpec>(path('a'), (d) => {
          d.spec.size = 1;
        });
        await settle();
        expect(rec.events[1]).toEqual({
          type: 'updated',
          resource: after,
          old: before,
          bookmark: expect.any(String) as unknown,
        });
      });

      it('ignores other resources of the same kind', async () => {
        const state = setup();
        const rec = await watch(state, ptr('a'));
        await create(state, 'b');
        await create(state, 'ab');
        await settle();
        expect(rec.seen()).toEqual(['destroyed:a@0']);
      });

      it('delivers events asynchronously, never inside the write', async () => {
        const state = setup();
        const rec = await watch(state, ptr('a'));
        await settle();
        const writing = create(state, 'a');
        expect(rec.seen()).toEqual(['destroyed:a@0']);
        await writing;
        await settle();
        expect(rec.seen()).toEqual(['destroyed:a@0', 'created:a@1']);
      });

      it('stops delivering when its signal is aborted', async () => {
        const state = setup();
        const rec = await watch(state, ptr('a'));
        await settle();
        rec.stop();
        await create(state, 'a');
        await settle();
        expect(rec.seen()).toEqual(['destroyed:a@0']);
      });

      it('delivers nothing when the signal is already aborted', async () => {
        const state = setup();
        await create(state, 'a');
        const events: StateEvent[] = [];
        await state.watch(ptr('a'), (event) => events.push(event), {
          signal: AbortSignal.abort(),
        });
        await state.destroy(ptr('a'));
        await settle();
        expect(events).toEqual([]);
      });
    });

    describe('watchKind', () => {
      it('without bootstrap delivers only changes, in order', async () => {
        const state = setup();
        await create(state, 'old');
        const rec = await watchKind(state);
        await create(state, 'b');
        await create(state, 'a');
        await state.modify(path('b'), (d) => {
          d.spec.size = 1;
        });
        await state.destroy(ptr('a'));
        await settle();
        expect(rec.seen()).toEqual(['created:b@1', 'created:a@1', 'updated:b@2', 'destroyed:a@1']);
      });

      it('with bootstrap first delivers one created per existing resource sorted by id, then bootstrapped', async () => {
        const state = setup();
        for (const id of ['c', 'a', 'b']) await create(state, id);
        const rec = await watchKind(state, { bootstrap: true });
        await create(state, 'd');
        await settle();
        expect(rec.seen()).toEqual([
          'created:a@1',
          'created:b@1',
          'created:c@1',
          'bootstrapped',
          'created:d@1',
        ]);
        expect(rec.events[3]).toEqual({
          type: 'bootstrapped',
          kind: KIND,
          bookmark: expect.any(String) as unknown,
        });
      });

      it('with bootstrap on an empty kind delivers only bootstrapped', async () => {
        const state = setup();
        const rec = await watchKind(state, { bootstrap: true });
        await settle();
        expect(rec.events).toEqual([
          { type: 'bootstrapped', kind: KIND, bookmark: expect.any(String) as unknown },
        ]);
      });

      it('does not deliver events of another type', async () => {
        const state = setup();
        const rec = await watchKind(state);
        await create(state, 'a', { type: OTHER_TYPE });
        await settle();
        expect(rec.events).toEqual([]);
      });

      it('with a filter delivers an update that makes a resource match as created', async () => {
        const state = setup();
        await create(state, 'a');
        const rec = await watchKind(state, { labelQueries: [labelQuery(labelExists('app'))] });
        await state.modify(path('a'), (d) => {
          d.metadata.labels.app = 'web';
        });
        await settle();
        expect(rec.seen()).toEqual(['created:a@2']);
      });

      it('with a filter delivers an update that makes a resource stop matching as destroyed', async () => {
        const state = setup();
        await create(state, 'a', { labels: { app: 'web' } });
        const rec = await watchKind(state, { labelQueries: [labelQuery(labelExists('app'))] });
        await state.modify(path('a'), (d) => {
          delete d.metadata.labels.app;
        });
        await settle();
        expect(rec.seen()).toEqual(['destroyed:a@2']);
      });

      it('with a filter delivers updates of a resource that keeps matching as updated', async () => {
        const state = setup();
        await create(state, 'a', { labels: { app: 'web' } });
        const rec = await watchKind(state, { labelQueries: [labelQuery(labelExists('app'))] });
        await state.modify(path('a'), (d) => {
          d.spec.size = 1;
        });
        await settle();
        expect(rec.seen()).toEqual(['updated:a@2']);
      });

      it('with a filter ignores changes of resources that never match', async () => {
        const state = setup();
        const rec = await watchKind(state, { labelQueries: [labelQuery(labelExists('app'))] });
        await create(state, 'a');
        await state.modify(path('a'), (d) => {
          d.spec.size = 1;
        });
        await state.destroy(ptr('a'));
        await settle();
        expect(rec.events).toEqual([]);
      });

      it('with an id query bootstraps and delivers only matching ids', async () => {
        const state = setup();
        for (let i = 0; i < 6; i++) await create(state, `idquery/path${i}`);
        const rec = await watchKind(state, {
          bootstrap: true,
          idQuery: idRegexp(/^idquery\/.+[2-4]$/),
        });
        for (let i = 0; i < 6; i++) await state.destroy(ptr(`idquery/path${i}`));
        await settle();
        expect(rec.seen()).toEqual([
          'created:idquery/path2@1',
          'created:idquery/path3@1',
          'created:idquery/path4@1',
          'bootstrapped',
          'destroyed:idquery/path2@1',
          'destroyed:idquery/path3@1',
          'destroyed:idquery/path4@1',
        ]);
      });

      it('stops delivering when its signal is aborted', async () => {
        const state = setup();
        const rec = await watchKind(state);
        await create(state, 'a');
        await settle();
        rec.stop();
        await create(state, 'b');
        await settle();
        expect(rec.seen()).toEqual(['created:a@1']);
      });

      it('delivers nothing more once aborted, even events already queued', async () => {
        const state = setup();
        const rec = await watchKind(state);
        const writing = create(state, 'a');
        rec.stop();
        await writing;
        await settle();
        expect(rec.events).toEqual([]);
      });

      it('delivers the same events to every watcher of the kind', async () => {
        const state = setup();
        const first = await watchKind(state);
        const second = await watchKind(state);
        await create(state, 'a');
        await state.destroy(ptr('a'));
        await settle();
        expect(first.seen()).toEqual(['created:a@1', 'destroyed:a@1']);
        expect(second.seen()).toEqual(first.seen());
      });
    });

    describe('watch: tail events and bookmarks', () => {
      /** a: created, torn down, a finalizer added and removed, destroyed; b in between. */
      async function history(state: State): Promise<void> {
        await create(state, 'a');
        await create(state, 'b');
        await state.teardown(ptr('a'));
        await state.addFinalizer(ptr('a'), 'x');
        await state.removeFinalizer(ptr('a'), 'x');
        await state.destroy(ptr('a'));
      }

      // Ported from cosi-project/runtime pkg/state/conformance/state.go TestWatchWithTailEvents
      it('with tailEvents replays the recent changes of the resource instead of its state, then goes on', async () => {
        const state = setup();
        await history(state);
        const rec = await watch(state, ptr('a'), { tailEvents: 1000 });
        await create(state, 'a');
        await settle();
        expect(rec.seen()).toEqual([
          'created:a@1',
          'updated:a@2',
          'updated:a@3',
          'updated:a@4',
          'destroyed:a@4',
          'created:a@1',
        ]);
      });

      it('with tailEvents replays only the last n changes of the resource', async () => {
        const state = setup();
        await history(state);
        const rec = await watch(state, ptr('a'), { tailEvents: 2 });
        await settle();
        expect(rec.seen()).toEqual(['updated:a@4', 'destroyed:a@4']);
      });

      // Ported from cosi-project/runtime pkg/state/conformance/state.go TestWatchWithBookmarks
      it('resumed from the bookmark of any change, delivers exactly the changes after it', async () => {
        const state = setup();
        const rec = await watch(state, ptr('a'));
        await history(state);
        await settle();
        const [initial, ...changes] = rec.events;
        expect(initial).toMatchObject({ type: 'destroyed' });
        expect(changes).toHaveLength(5);
        await create(state, 'a');

        for (const [i, event] of changes.entries()) {
          const bookmark = (event as { bookmark?: string }).bookmark;
          expect(typeof bookmark).toBe('string');
          const resumed = await watch(state, ptr('a'), { startFromBookmark: bookmark as string });
          await settle();
          expect(resumed.seen()).toEqual([
            ...changes.slice(i + 1).map(describeEvent),
            'created:a@1',
          ]);
          resumed.stop();
        }
      });

      it('rejects a bookmark it did not issue with an invalid-bookmark error', async () => {
        const state = setup();
        const other = factory({ now: clock.now });
        const rec = await watchKind(other);
        await other.create(path('a'));
        await settle();
        const foreign = (rec.events[0] as { bookmark?: string }).bookmark as string;
        await create(state, 'a');

        for (const bookmark of [foreign, 'not a bookmark', '']) {
          const error = await errorOf(
            state.watch(ptr('a'), () => undefined, { startFromBookmark: bookmark }),
          );
          expect(isInvalidBookmark(error)).toBe(true);
        }
      });

      it('rejects tailEvents together with startFromBookmark', async () => {
        const state = setup();
        const rec = await watch(state, ptr('a'));
        await create(state, 'a');
        await settle();
        const bookmark = (rec.events[1] as { bookmark?: string }).bookmark as string;
        await errorOf(
          state.watch(ptr('a'), () => undefined, { tailEvents: 1, startFromBookmark: bookmark }),
        );
      });
    });

    describe('watchKind: tail events and bookmarks', () => {
      // Ported from cosi-project/runtime pkg/state/conformance/state.go TestWatchKindWithTailEvents
      it.each(KIND_WATCHERS)(
        '%s with tailEvents replays the last changes of the kind, then goes on',
        async (_, watcher) => {
          const state = setup();
          await create(state, 'a');
          await state.modify(path('a'), (d) => {
            d.spec.size = 1;
          });
          await state.teardown(ptr('a'));
          await state.destroy(ptr('a'));
          await create(state, 'b', { type: OTHER_TYPE });

          const all = await watcher(state, { tailEvents: 1000 });
          const lastTwo = await watcher(state, { tailEvents: 2 });
          await create(state, 'c');
          await settle();
          expect(all.seen()).toEqual([
            'created:a@1',
            'updated:a@2',
            'updated:a@3',
            'destroyed:a@3',
            'created:c@1',
          ]);
          expect(lastTwo.seen()).toEqual(['updated:a@3', 'destroyed:a@3', 'created:c@1']);
        },
      );

      // Ported from cosi-project/runtime pkg/state/conformance/state.go TestWatchKindWithBookmarks
      describe.each(KIND_WATCHERS)('%s', (_, watcher) => {
        it.each([
          ['bootstrap', { bootstrap: true }, 'bootstrapped'],
          ['bootstrapBookmark', { bootstrapBookmark: true }, 'noop'],
        ] as const)(
          'with %s, resumed from any bookmark, delivers exactly the changes after it',
          async (_option, options, marker) => {
            const state = setup();
            await create(state, 'r');
            const rec = await watcher(state, options);
            await state.modify(path('r'), (d) => {
              d.spec.size = 1;
            });
            await state.modify(path('r'), (d) => {
              d.spec.size = 2;
            });
            await state.teardown(ptr('r'));
            await state.destroy(ptr('r'));
            await settle();

            const changes = ['updated:r@2', 'updated:r@3', 'updated:r@4', 'destroyed:r@4'];
            const initial = 'bootstrap' in options ? ['created:r@1', marker] : [marker];
            expect(rec.seen()).toEqual([...initial, ...changes]);
            const markerEvent = rec.events.find((e) => e.type === marker);
            expect(typeof (markerEvent as { bookmark?: string }).bookmark).toBe('string');
            rec.stop();
            await create(state, 'r');

            const withBookmarks = rec.events.slice(initial.length - 1);
            for (const [i, event] of withBookmarks.entries()) {
              const bookmark = (event as { bookmark?: string }).bookmark;
              expect(typeof bookmark).toBe('string');
              const resumed = await watcher(state, { startFromBookmark: bookmark as string });
              await settle();
              expect(resumed.seen()).toEqual([...changes.slice(i), 'created:r@1']);
              resumed.stop();
            }
          },
        );
      });

      it('with a filter, keeps the bookmark of an update delivered as created or destroyed', async () => {
        const state = setup();
        await create(state, 'a');
        const rec = await watchKind(state, { labelQueries: [labelQuery(labelExists('on'))] });
        await state.modify(path('a'), (d) => {
          d.metadata.labels.on = '';
        });
        await state.modify(path('a'), (d) => {
          delete d.metadata.labels.on;
        });
        await settle();
        expect(rec.seen()).toEqual(['created:a@2', 'destroyed:a@3']);
        const [, destroyed] = rec.events;
        const resumed = await watchKind(state, {
          startFromBookmark: (rec.events[0] as { bookmark?: string }).bookmark as string,
        });
        await settle();
        expect(resumed.seen()).toEqual(['updated:a@3']);
        expect(destroyed).toMatchObject({ bookmark: expect.any(String) as unknown });
      });

      it('rejects bootstrap together with tailEvents or startFromBookmark', async () => {
        const state = setup();
        const rec = await watchKind(state, { bootstrapBookmark: true });
        await settle();
        const bookmark = (rec.events[0] as { bookmark?: string }).bookmark as string;
        await errorOf(state.watchKind(KIND, () => undefined, { bootstrap: true, tailEvents: 1 }));
        await errorOf(
          state.watchKind(KIND, () => undefined, { bootstrap: true, startFromBookmark: bookmark }),
        );
      });

      it('rejects a bookmark it did not issue with an invalid-bookmark error', async () => {
        const state = setup();
        const error = await errorOf(
          state.watchKind(KIND, () => undefined, { startFromBookmark: 'not a bookmark' }),
        );
        expect(isInvalidBookmark(error)).toBe(true);
      });
    });

    describe('watchKindAggregated', () => {
      // Ported from cosi-project/runtime pkg/state/conformance/state.go TestWatchKindAggregated
      it('delivers every change of the kind in order, in batches', async () => {
        const state = setup();
        const rec = await watchKindAggregated(state);
        await create(state, 'a');
        await create(state, 'b');
        await create(state, 'x', { type: OTHER_TYPE });
        await state.destroy(ptr('a'));
        await settle();
        expect(rec.seen()).toEqual(['created:a@1', 'created:b@1', 'destroyed:a@1']);
        expect(rec.batches.every((batch) => batch.length > 0)).toBe(true);
      });

      it('with bootstrap first delivers the existing resources and bootstrapped', async () => {
        const state = setup();
        await create(state, 'b');
        await create(state, 'a');
        const rec = await watchKindAggregated(state, { bootstrap: true });
        await settle();
        await create(state, 'c');
        await settle();
        expect(rec.seen()).toEqual(['created:a@1', 'created:b@1', 'bootstrapped', 'created:c@1']);
      });

      // Ported from cosi-project/runtime pkg/state/conformance/state.go TestWatchKindAggregatedWithLabels
      it('filters with the same semantics as watchKind', async () => {
        const state = setup();
        await create(state, 'a', { labels: { tier: 'web' } });
        const rec = await watchKindAggregated(state, {
          bootstrap: true,
          labelQueries: [labelQuery(labelEqual('tier', 'web'))],
        });
        await create(state, 'b', { labels: { tier: 'db' } });
        await state.modify(path('b'), (d) => {
          d.metadata.labels.tier = 'web';
        });
        await state.modify(path('a'), (d) => {
          d.metadata.labels.tier = 'db';
        });
        await settle();
        expect(rec.seen()).toEqual(['created:a@1', 'bootstrapped', 'created:b@2', 'destroyed:a@2']);
      });

      it('stops delivering when its signal is aborted', async () => {
        const state = setup();
        const rec = await watchKindAggregated(state);
        await create(state, 'a');
        await settle();
        rec.stop();
        await create(state, 'b');
        await settle();
        expect(rec.seen()).toEqual(['created:a@1']);
      });
    });

    describe('slow listeners', () => {
      it("a listener's promise holds back the next event; nothing is lost or reordered", async () => {
        const state = setup();
        const seen: string[] = [];
        const slow = gate();
        await state.watchKind(KIND, (event) => {
          seen.push(describeEvent(event));
          return seen.length === 1 ? slow.promise : undefined;
        });
        await create(state, 'a');
        await create(state, 'b');
        await state.destroy(ptr('a'));
        await settle();
        expect(seen).toEqual(['created:a@1']);
        slow.open();
        await settle();
        expect(seen).toEqual(['created:a@1', 'created:b@1', 'destroyed:a@1']);
      });

      it('an aggregated listener gets what piled up meanwhile as its next batch', async () => {
        const state = setup();
        const batches: string[][] = [];
        const slow = gate();
        await state.watchKindAggregated(KIND, (batch) => {
          batches.push(batch.map(describeEvent));
          return batches.length === 1 ? slow.promise : undefined;
        });
        await create(state, 'a');
        await settle();
        await create(state, 'b');
        await create(state, 'c');
        await settle();
        expect(batches).toEqual([['created:a@1']]);
        slow.open();
        await settle();
        expect(batches).toEqual([['created:a@1'], ['created:b@1', 'created:c@1']]);
      });

      it('a listener that rejects does not end the watch', async () => {
        const state = setup();
        const seen: string[] = [];
        await state.watch(ptr('a'), (event) => {
          seen.push(describeEvent(event));
          return Promise.reject(new Error('listener failed'));
        });
        await create(state, 'a');
        await settle();
        expect(seen).toEqual(['destroyed:a@0', 'created:a@1']);
      });
    });
  });
}
