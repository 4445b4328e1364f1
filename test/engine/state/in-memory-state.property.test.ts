/**
 * Model-based property test: random sequences of writes run against the in-memory state and
 * against a trivial model (a Map with the COSI rules spelled out). They must agree on the outcome
 * of every operation and on every read, and the watch stream must tell the same story.
 *
 * Versions are per incarnation: while a resource exists every write bumps its version by exactly
 * one; destroying it and creating it again starts over at 1, as in COSI.
 *
 * The same properties hold for the etcd state (against a real etcd, with fewer runs); only object
 * identity differs: the in-memory state hands out the stored objects themselves, etcd decodes
 * copies, so there "the same resource" is checked as equal rather than identical.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  ConflictError,
  createEtcdState,
  createInMemoryState,
  isNotFound,
  newResource,
  toDraft,
  type Phase,
  type Pointer,
  type Resource,
  type State,
  isResourceEvent,
  labelEqual,
  labelQuery,
  type StateEvent,
} from '../../../src/index.js';
import { etcdAvailable } from '../../support/etcd-server.js';
import { useEtcdClient } from '../../support/etcd-client.js';

/** A state under test, made fresh for every run. */
interface OpenedState {
  readonly state: State;
  /** Resolves once the state's watches have received every change written so far. */
  readonly settled: () => Promise<void>;
  readonly close: () => Promise<void>;
}

interface Backend {
  readonly name: string;
  readonly runs: number;
  /** Whether reads and events hand out the stored objects themselves (in memory). */
  readonly sharesObjects: boolean;
  readonly open: (now: () => number) => OpenedState;
}

/** "The same resource": identical where the backend shares stored objects, else equal. */
type Same = (actual: unknown, expected: unknown) => void;

interface Spec {
  value: number;
}

const NS = 'default';
const TYPE = 'Things.test.cosi.dev';
const KIND = { namespace: NS, type: TYPE };
const IDS = ['a', 'b'] as const;
const OWNERS = ['', 'ctrl'] as const;
const FINALIZERS = ['f1', 'f2'] as const;

type Id = (typeof IDS)[number];

const ptr = (id: string): Pointer => ({ namespace: NS, type: TYPE, id });

type Op =
  | { kind: 'create'; id: Id; owner: string; value: number }
  | { kind: 'update'; id: Id; owner: string; value: number; versionDelta: -1 | 0 | 1 }
  | { kind: 'modify'; id: Id; owner: string; value: number; anyPhase: boolean }
  | { kind: 'teardown'; id: Id; owner: string }
  | { kind: 'addFinalizer'; id: Id; finalizer: string }
  | { kind: 'removeFinalizer'; id: Id; finalizer: string }
  | { kind: 'destroy'; id: Id; owner: string }
  | { kind: 'teardownAndDestroy'; id: Id; owner: string };

const id = fc.constantFrom(...IDS);
const owner = fc.constantFrom(...OWNERS);
const value = fc.integer({ min: 0, max: 2 });
const finalizer = fc.constantFrom(...FINALIZERS);

// Weights favour creating resources and finalizers, so that teardown, destroy and the waits of
// teardownAndDestroy meet resources that exist and hold finalizers often enough.
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), id, owner, value }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      id,
      owner,
      value,
      versionDelta: fc.constantFrom(0 as const, 0 as const, -1 as const, 1 as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('modify' as const),
      id,
      owner,
      value,
      anyPhase: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('teardown' as const), id, owner }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('addFinalizer' as const), id, finalizer }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('removeFinalizer' as const), id, finalizer }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('destroy' as const), id, owner }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('teardownAndDestroy' as const), id, owner }),
  },
);

interface Entry {
  version: number;
  owner: string;
  phase: Phase;
  /** A set in insertion order, as the state keeps it. */
  finalizers: string[];
  value: number;
}

/** `ok`, `ok:true|false` (teardown's answer), `not-found` or `conflict:<reason>`. */
type Outcome = string;

/** The COSI rules, written out plainly over a Map. */
class Model {
  readonly entries = new Map<string, Entry>();

  /** Applies an op and returns its outcome; `waitsForFinalizers` for teardownAndDestroy. */
  apply(op: Op): Outcome {
    const current = this.entries.get(op.id);
    switch (op.kind) {
      case 'create':
        if (current) return 'conflict:exists';
        this.entries.set(op.id, {
          version: 1,
          owner: op.owner,
          phase: 'running',
          finalizers: [],
          value: op.value,
        });
        return 'ok';
      case 'update':
        if (!current) return 'not-found';
        if (current.owner !== op.owner) return 'conflict:owner';
        if (op.versionDelta !== 0) return 'conflict:version';
        if (current.phase !== 'running') return 'conflict:phase';
        current.version++;
        current.value = op.value;
        return 'ok';
      case 'modify':
        if (!current) {
          this.entries.set(op.id, {
            version: 1,
            owner: op.owner,
            phase: 'running',
            finalizers: [],
            value: op.value,
          });
          return 'ok';
        }
        if (!op.anyPhase && current.phase !== 'running') return 'conflict:phase';
        if (current.value === op.value) return 'ok';
        if (current.owner !== op.owner) return 'conflict:owner';
        current.version++;
        current.value = op.value;
        return 'ok';
      case 'teardown':
        if (!current) return 'not-found';
        if (current.phase === 'running') {
          if (current.owner !== op.owner) return 'conflict:owner';
          current.phase = 'tearingDown';
          current.version++;
        }
        return `ok:${current.finalizers.length === 0}`;
      case 'addFinalizer':
        if (!current) return 'not-found';
        if (!current.finalizers.includes(op.finalizer)) {
          current.finalizers.push(op.finalizer);
          current.version++;
        }
        return 'ok';
      case 'removeFinalizer':
        if (!current) return 'not-found';
        if (current.finalizers.includes(op.finalizer)) {
          current.finalizers = current.finalizers.filter((f) => f !== op.finalizer);
          current.version++;
        }
        return 'ok';
      case 'destroy':
        if (!current) return 'not-found';
        if (current.owner !== op.owner) return 'conflict:owner';
        if (current.finalizers.length > 0) return 'conflict:pending-finalizers';
        this.entries.delete(op.id);
        return 'ok';
      case 'teardownAndDestroy':
        if (!current) return 'not-found';
        if (current.phase === 'running') {
          if (current.owner !== op.owner) return 'conflict:owner';
          current.phase = 'tearingDown';
          current.version++;
        }
        // The driver plays "someone else" and removes the finalizers while it waits.
        if (current.finalizers.length > 0) {
          current.finalizers = [];
          current.version++;
        }
        if (current.owner !== op.owner) return 'conflict:owner';
        this.entries.delete(op.id);
        return 'ok';
    }
  }

  /** Whether teardownAndDestroy will wait for finalizers (so the driver must remove them). */
  waitsForFinalizers(op: Op & { kind: 'teardownAndDestroy' }): readonly string[] {
    const current = this.entries.get(op.id);
    if (!current) return [];
    if (current.phase === 'running' && current.owner !== op.owner) return [];
    return [...current.finalizers];
  }
}

function classify(error: unknown): Outcome {
  if (isNotFound(error)) return 'not-found';
  if (error instanceof ConflictError) return `conflict:${error.reason}`;
  throw error;
}

async function outcomeOf(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    const result = await run();
    return typeof result === 'boolean' ? `ok:${result}` : 'ok';
  } catch (error) {
    return classify(error);
  }
}

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

async function runOp(state: State, model: Model, op: Op): Promise<Outcome> {
  const p = ptr(op.id);
  switch (op.kind) {
    case 'create':
      return outcomeOf(() =>
        state.create(
          newResource<Spec>(p, { value: op.value }, { labels: { value: String(op.value) } }),
          { owner: op.owner },
        ),
      );
    case 'update':
      return outcomeOf(async () => {
        const stored = await state.get<Spec>(p).catch(() => undefined);
        const draft = stored ? toDraft(stored) : newResource<Spec>(p, { value: 0 });
        draft.metadata.version = (stored?.metadata.version ?? 1) + op.versionDelta;
        draft.spec.value = op.value;
        draft.metadata.labels.value = String(op.value);
        return state.update(draft, { owner: op.owner });
      });
    case 'modify':
      return outcomeOf(() =>
        state.modify<Spec>(
          newResource<Spec>(p, { value: 0 }),
          (draft) => {
            draft.spec.value = op.value;
            draft.metadata.labels.value = String(op.value);
          },
          { owner: op.owner, expectedPhase: op.anyPhase ? 'any' : 'running' },
        ),
      );
    case 'teardown':
      return outcomeOf(() => state.teardown(p, { owner: op.owner }));
    case 'addFinalizer':
      return outcomeOf(() => state.addFinalizer(p, op.finalizer));
    case 'removeFinalizer':
      return outcomeOf(() => state.removeFinalizer(p, op.finalizer));
    case 'destroy':
      return outcomeOf(() => state.destroy(p, { owner: op.owner }));
    case 'teardownAndDestroy': {
      const pending = model.waitsForFinalizers(op);
      const result = outcomeOf(() => state.teardownAndDestroy(p, { owner: op.owner }));
      if (pending.length > 0) {
        await nextTurn();
        await state.removeFinalizer(p, ...pending);
      }
      return result;
    }
  }
}

interface Snapshot {
  id: string;
  version: number;
  owner: string;
  phase: Phase;
  finalizers: string[];
  value: number;
}

const fromState = (r: Resource<Spec>): Snapshot => ({
  id: r.metadata.id,
  version: r.metadata.version,
  owner: r.metadata.owner,
  phase: r.metadata.phase,
  finalizers: [...r.metadata.finalizers],
  value: r.spec.value,
});

const byId = (a: Resource, b: Resource): number =>
  a.metadata.id < b.metadata.id ? -1 : a.metadata.id > b.metadata.id ? 1 : 0;

const fromModel = (model: Model): Snapshot[] =>
  [...model.entries]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([entryId, e]) => ({ id: entryId, ...e, finalizers: [...e.finalizers] }));

/**
 * Replays a watchKind stream into a map of live resources, checking as it goes that each event
 * follows from the previous one: created at version 1, updated at +1 with the right `old`,
 * destroyed with the last stored state.
 */
function replay(events: readonly StateEvent[], same: Same): Map<string, Resource> {
  const live = new Map<string, Resource>();
  for (const event of events) {
    if (!isResourceEvent(event)) continue;
    const { id: eventId, version } = event.resource.metadata;
    const previous = live.get(eventId);
    switch (event.type) {
      case 'created':
        expect(previous).toBeUndefined();
        expect(version).toBe(1);
        live.set(eventId, event.resource);
        break;
      case 'updated':
        expect(previous).toBeDefined();
        same(event.old, previous);
        expect(version).toBe(previous!.metadata.version + 1);
        expect(event.resource.metadata.created).toBe(previous!.metadata.created);
        live.set(eventId, event.resource);
        break;
      case 'destroyed':
        same(event.resource, previous);
        live.delete(eventId);
        break;
    }
  }
  return live;
}

interface Step {
  readonly op: Op;
  readonly actual: Outcome;
  readonly expected: Outcome;
  /** `list` after the op, and `get` of every id (undefined when not found). */
  readonly listed: readonly Resource<Spec>[];
  readonly got: ReadonlyMap<string, Resource<Spec> | undefined>;
  readonly model: readonly Snapshot[];
  /** Lists by label value and by owner (answered from the indexes), each with its own filter. */
  readonly queried: readonly {
    readonly listed: readonly Resource<Spec>[];
    readonly keep: (r: Resource<Spec>) => boolean;
  }[];
}

interface Trace {
  readonly steps: readonly Step[];
  readonly events: readonly StateEvent[];
  readonly final: readonly Resource<Spec>[];
}

/** Runs the ops against a fresh state and the model, recording everything there is to check. */
async function simulate(backend: Backend, ops: readonly Op[]): Promise<Trace> {
  let tick = 0;
  const opened = backend.open(() => ++tick);
  try {
    return await record(opened, ops);
  } finally {
    await opened.close();
  }
}

async function record({ state, settled }: OpenedState, ops: readonly Op[]): Promise<Trace> {
  const model = new Model();
  const events: StateEvent[] = [];
  await state.watchKind(KIND, (event) => events.push(event));
  const steps: Step[] = [];
  for (const op of ops) {
    const actual = await runOp(state, model, op);
    const expected = model.apply(op);
    const listed = await state.list<Spec>(KIND);
    const got = new Map<string, Resource<Spec> | undefined>();
    for (const eachId of IDS) {
      got.set(
        eachId,
        await state.get<Spec>(ptr(eachId)).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
          return undefined;
        }),
      );
    }
    const queried = [];
    for (const v of ['0', '1', '2']) {
      queried.push({
        listed: await state.list<Spec>(KIND, {
          labelQueries: [labelQuery(labelEqual('value', v))],
        }),
        keep: (r: Resource<Spec>) => r.metadata.labels.value === v,
      });
    }
    for (const o of OWNERS) {
      queried.push({
        listed: await state.list<Spec>(KIND, { owner: o }),
        keep: (r: Resource<Spec>) => r.metadata.owner === o,
      });
    }
    steps.push({ op, actual, expected, listed, got, model: fromModel(model), queried });
  }
  await settled();
  await nextTurn();
  return { steps, events, final: await state.list<Spec>(KIND) };
}

const opsArb = fc.array(opArb, { minLength: 1, maxLength: 40, size: 'max' });
/** The properties, against one backend. */
function describeAgainstModel(backend: () => Backend): void {
  const runs = (): { numRuns: number } => ({ numRuns: backend().runs });
  const same: Same = (actual, expected) => {
    if (backend().sharesObjects) expect(actual).toBe(expected);
    else expect(actual).toEqual(expected);
  };

  it('agrees with the model on the outcome of every operation', async () => {
    await fc.assert(
      fc.asyncProperty(opsArb, async (ops) => {
        for (const step of (await simulate(backend(), ops)).steps) {
          expect(step.actual, JSON.stringify(step.op)).toBe(step.expected);
        }
      }),
      runs(),
    );
  });

  it('answers label equality and owner queries as a filter of the full list would', async () => {
    await fc.assert(
      fc.asyncProperty(opsArb, async (ops) => {
        for (const step of (await simulate(backend(), ops)).steps) {
          for (const { listed, keep } of step.queried) {
            expect(listed, JSON.stringify(step.op)).toEqual(step.listed.filter(keep));
          }
        }
      }),
      runs(),
    );
  });

  it('agrees with the model on every read: nothing is lost, nothing comes back', async () => {
    await fc.assert(
      fc.asyncProperty(opsArb, async (ops) => {
        for (const step of (await simulate(backend(), ops)).steps) {
          expect(step.listed.map(fromState), JSON.stringify(step.op)).toEqual(step.model);
          for (const [eachId, got] of step.got) {
            same(
              got,
              step.listed.find((r) => r.metadata.id === eachId),
            );
          }
        }
      }),
      runs(),
    );
  });

  it('never lowers a version while a resource exists, and keeps its created time', async () => {
    await fc.assert(
      fc.asyncProperty(opsArb, async (ops) => {
        let before = new Map<string, Resource<Spec>>();
        for (const step of (await simulate(backend(), ops)).steps) {
          for (const r of step.listed) {
            const earlier = before.get(r.metadata.id);
            if (!earlier) continue;
            expect(r.metadata.version).toBeGreaterThanOrEqual(earlier.metadata.version);
            expect(r.metadata.version - earlier.metadata.version).toBeLessThanOrEqual(2);
            expect(r.metadata.created).toBe(earlier.metadata.created);
            if (r.metadata.version === earlier.metadata.version) same(r, earlier);
            else expect(r.metadata.updated).toBeGreaterThan(earlier.metadata.updated);
          }
          before = new Map(step.listed.map((r) => [r.metadata.id, r]));
        }
      }),
      runs(),
    );
  });

  it('never destroys a resource that still has finalizers', async () => {
    await fc.assert(
      fc.asyncProperty(opsArb, async (ops) => {
        const { steps, events } = await simulate(backend(), ops);
        // Every disappearance is announced by one destroyed event...
        let disappearances = 0;
        let before = new Set<string>();
        for (const step of steps) {
          for (const eachId of before) if (step.got.get(eachId) === undefined) disappearances++;
          before = new Set(step.listed.map((r) => r.metadata.id));
        }
        const destroyed = events.filter((e) => e.type === 'destroyed');
        expect(destroyed).toHaveLength(disappearances);
        // ...which carries the last stored state, and that state had no finalizers.
        const last = new Map<string, Resource>();
        for (const event of events) {
          if (event.type === 'created' || event.type === 'updated') {
            last.set(event.resource.metadata.id, event.resource);
          } else if (event.type === 'destroyed') {
            same(event.resource, last.get(event.resource.metadata.id));
            expect(event.resource.metadata.finalizers).toEqual([]);
          }
        }
      }),
      runs(),
    );
  });

  it('delivers a watch stream, one version up per write, that replays to the stored state', async () => {
    await fc.assert(
      fc.asyncProperty(opsArb, async (ops) => {
        const { events, final } = await simulate(backend(), ops);
        const replayed = replay(events, same);
        expect([...replayed.values()].sort(byId)).toEqual(final);
      }),
      runs(),
    );
  });
}

const inMemory: Backend = {
  name: 'in-memory',
  runs: 150,
  sharesObjects: true,
  open: (now) => ({
    state: createInMemoryState({ now }),
    settled: async () => undefined,
    close: async () => undefined,
  }),
};

describe('in-memory state against a model', () => {
  describeAgainstModel(() => inMemory);
});

describe.skipIf(!etcdAvailable)('etcd state against a model', () => {
  // A real etcd on a machine shared with other test runs: round trips may be slow.
  vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
  const live = useEtcdClient();
  let serial = 0;
  const etcd: Backend = {
    name: 'etcd',
    // Every operation is a few round trips to a real etcd: fewer runs.
    runs: 8,
    sharesObjects: false,
    open: (now) => {
      const state = createEtcdState({ client: live.client, prefix: `/property/${serial++}`, now });
      return { state, settled: () => state.settled(), close: () => state.close() };
    },
  };
  describeAgainstModel(() => etcd);
});
