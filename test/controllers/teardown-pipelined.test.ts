/**
 * The cleanup, destroy and garbage-collector controllers with writes in flight
 * (`RuntimeOptions.writesInFlight`, as on etcd): their teardowns, destroys and finalizer changes
 * are under way together, at most that many at once, and each resource's writes stay in order
 * (nothing destroyed twice, an owner released only once its dependents are gone). The state here
 * answers each write a few turns late, as a state behind I/O would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createCleanupController,
  createDestroyController,
  createGarbageCollector,
  createInMemoryState,
  createRuntime,
  defineResource,
  removeOutputs,
  setControllerReference,
  SimulatedClock,
  type Runtime,
  type State,
} from '../../src/index.js';

const Owner = defineResource<{ n: number }>({
  type: 'Owners.pipelined.test',
  defaultSpec: () => ({ n: 0 }),
});
const Part = defineResource<{ n: number }>({
  type: 'Parts.pipelined.test',
  defaultSpec: () => ({ n: 0 }),
});

const WRITES = ['teardown', 'destroy', 'addFinalizer', 'removeFinalizer'] as const;
type WriteName = (typeof WRITES)[number];

/** An in-memory state whose writes each take a few turns of the microtask queue, counted. */
function createSlowState() {
  const clock = new SimulatedClock();
  const inner = createInMemoryState({ now: () => clock.now() });
  const running = new Map<WriteName, number>();
  const most = new Map<WriteName, number>();
  /** Every write as it completed: `<write> <id>`. */
  const done: string[] = [];
  const state = new Proxy(inner, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (!(WRITES as readonly PropertyKey[]).includes(prop)) return method;
      const name = prop as WriteName;
      return async (pointer: { id: string }, ...rest: unknown[]) => {
        const now = (running.get(name) ?? 0) + 1;
        running.set(name, now);
        most.set(name, Math.max(most.get(name) ?? 0, now));
        try {
          for (let i = 0; i < 5; i++) await Promise.resolve();
          const result = await method(pointer, ...rest);
          done.push(`${name} ${pointer.id}`);
          return result;
        } finally {
          running.set(name, (running.get(name) ?? 1) - 1);
        }
      };
    },
  }) as State;
  return { state, clock, most, done };
}

/** Where the last write of that name is in the order of completion. */
const lastOf = (done: readonly string[], name: WriteName): number =>
  Math.max(...done.flatMap((d, i) => (d.startsWith(`${name} `) ? [i] : [])));

const ids = (n: number, prefix: string): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

describe('teardown controllers with writes in flight', () => {
  it('destroy: destroys at most writesInFlight released resources at once, and every one', async () => {
    const { state, clock, most, done } = createSlowState();
    runtime = createRuntime(state, { clock, writesInFlight: 4 });
    await runtime.register(createDestroyController(Owner.kind()));
    for (const id of ids(12, 'o')) {
      await state.create(Owner.create(id));
      await state.teardown(Owner.pointer(id));
    }
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    expect(await state.list(Owner.kind())).toEqual([]);
    expect(most.get('destroy')).toBe(4);
    expect(done.filter((d) => d.startsWith('destroy')).sort()).toEqual(
      ids(12, 'o').map((id) => `destroy ${id}`),
    );
  });

  it('destroy: one at a time with one write in flight (in memory)', async () => {
    const { state, clock, most } = createSlowState();
    runtime = createRuntime(state, { clock });
    await runtime.register(createDestroyController(Owner.kind()));
    for (const id of ids(6, 'o')) {
      await state.create(Owner.create(id));
      await state.teardown(Owner.pointer(id));
    }
    await runtime.converge();
    expect(await state.list(Owner.kind())).toEqual([]);
    expect(most.get('destroy')).toBe(1);
  });

  it('cleanup: puts its finalizer on many inputs at once, then removes their dependents together, each once', async () => {
    const { state, clock, most, done } = createSlowState();
    runtime = createRuntime(state, { clock, writesInFlight: 4 });
    // Both owners' dependents are every part: two inputs tearing down in one pass share them.
    await runtime.register(
      createCleanupController({
        name: 'OwnerCleanup',
        input: Owner,
        handler: removeOutputs(Part.kind()),
      }),
    );
    for (const id of ids(8, 'o')) await state.create(Owner.create(id));
    for (const id of ids(12, 'p')) await state.create(Part.create(id));
    expect((await runtime.converge()).converged).toBe(true);
    expect(most.get('addFinalizer')).toBe(4);
    for (const owner of await state.list(Owner.kind())) {
      expect(owner.metadata.finalizers).toEqual(['OwnerCleanup']);
    }

    await state.teardown(Owner.pointer('o00'));
    await state.teardown(Owner.pointer('o01'));
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    expect(await state.list(Part.kind())).toEqual([]);
    // At most writesInFlight of one owner's dependents at once, two owners side by side.
    expect(most.get('destroy')).toBeGreaterThanOrEqual(4);
    expect(most.get('destroy')).toBeLessThanOrEqual(8);
    const destroys = done.filter((d) => d.startsWith('destroy'));
    expect(destroys.sort()).toEqual(ids(12, 'p').map((id) => `destroy ${id}`));
    // The owners are released only after every dependent is gone.
    const lastDestroy = lastOf(done, 'destroy');
    const releases = done.flatMap((d, i) => (d.startsWith('removeFinalizer') ? [i] : []));
    expect(releases).toHaveLength(2);
    for (const at of releases) expect(at).toBeGreaterThan(lastDestroy);
    for (const id of ['o00', 'o01']) {
      expect((await state.get(Owner.pointer(id))).metadata.finalizers).toEqual([]);
    }
  });

  it('garbage collector: collects the dependents of an owner together, then releases the owner', async () => {
    const { state, clock, most, done } = createSlowState();
    runtime = createRuntime(state, { clock, writesInFlight: 4 });
    await runtime.register(createGarbageCollector({ owners: [Owner], dependents: [Part] }));
    const owner = await state.create(Owner.create('o'));
    for (const id of ids(12, 'p')) {
      const part = Part.create(id);
      setControllerReference(owner, part, { blockOwnerDeletion: true });
      await state.create(part);
    }
    expect((await runtime.converge()).converged).toBe(true);
    expect((await state.get(Owner.pointer('o'))).metadata.finalizers).toEqual([
      'cosi.dev/garbage-collector',
    ]);

    await state.teardown(Owner.pointer('o'));
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    expect(await state.list(Part.kind())).toEqual([]);
    expect(most.get('teardown')).toBe(4);
    expect(most.get('destroy')).toBe(4);
    const destroys = done.filter((d) => d.startsWith('destroy'));
    expect(destroys.sort()).toEqual(ids(12, 'p').map((id) => `destroy ${id}`));
    expect(done.indexOf('removeFinalizer o')).toBeGreaterThan(lastOf(done, 'destroy'));
    expect((await state.get(Owner.pointer('o'))).metadata.finalizers).toEqual([]);
  });
});
