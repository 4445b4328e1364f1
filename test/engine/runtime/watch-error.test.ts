import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type Kind,
  type ListOptions,
  type LogRecord,
  type QController,
  type Runtime,
  type WatchKindOptions,
  type WatchListener,
} from '../../../src/index.js';
import { InMemoryState } from '../../../src/engine/state/in-memory-state.js';
import { Int, intToStr, Str } from './test-controllers.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

/**
 * An in-memory state that hands every change to its watchers later, in a microtask, as a state
 * over the network does: it ignores `inline`, by which the in-memory state would hand the
 * runtime each change inside the write, so that the runtime's watches could never fall behind.
 */
class QueuedWatchState extends InMemoryState {
  override watchKind(kind: Kind, listener: WatchListener, options: WatchKindOptions = {}) {
    return super.watchKind(kind, listener, { ...options, inline: false });
  }
}

/** A runtime over a state whose history holds only 8 changes per kind, so a burst overruns. */
function tinyHistory(): {
  state: InMemoryState;
  runtime: Runtime;
  logs: LogRecord[];
} {
  const clock = new SimulatedClock();
  const state = new QueuedWatchState({
    now: () => clock.now(),
    historyCapacity: 8,
    historyGap: 0,
  });
  const logs: LogRecord[] = [];
  runtime = createRuntime(state, { clock, logSink: (record) => logs.push(record) });
  return { state, runtime, logs };
}

/** Creates ints without yielding between the writes: the runtime's watch cannot keep up. */
async function burst(state: InMemoryState, ids: string[]): Promise<void> {
  await Promise.all(ids.map((id) => state.create(Int.create(id, { value: Number(id) }))));
}

const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from }, (_, i) => String(from + i));

/** Int (primary) -> Str, one item at a time. */
const intToStrQueue: QController = {
  name: 'IntToStrQueue',
  settings: {
    inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
    outputs: [{ type: Str.type, kind: 'exclusive' }],
  },
  async reconcile(rt, pointer) {
    const int = await rt.find<{ value: number }>(pointer);
    if (!int) return;
    await rt.modify(Str.create(pointer.id), (draft) => {
      draft.spec.value = String(int.spec.value);
    });
  },
  mapInput: () => Promise.resolve([]),
};

// Ported from cosi-project/runtime pkg/controller/runtime/runtime_test.go TestRuntimeWatchError
// (COSI's runtime stops on the watch error; this one watches again and retriggers).
describe('a watch that overruns its buffer', () => {
  it('is watched again, and a whole-world controller reconciles every change it lost', async () => {
    const h = tinyHistory();
    await h.runtime.register(intToStr());
    expect((await h.runtime.converge()).converged).toBe(true);

    await burst(h.state, range(0, 20));
    const report = await h.runtime.converge();

    expect(report.converged).toBe(true);
    const strs = await h.state.list(Str.kind());
    expect(strs.map((s) => s.metadata.id).sort()).toEqual(range(0, 20).sort());
    const warnings = h.logs.filter((r) => r.level === 'warn');
    expect(warnings.map((r) => r.message)).toEqual([
      'watch error: watching again from the current state',
    ]);
    expect(warnings[0]?.fields).toMatchObject({ namespace: Int.namespace, type: Int.type });

    // The new watch delivers what comes next.
    await h.state.create(Int.create('late', { value: 7 }));
    await h.runtime.converge();
    expect((await h.state.get<{ value: string }>(Str.pointer('late'))).spec.value).toBe('7');
  });

  it('requeues every primary of a queue controller, as its restart would', async () => {
    const h = tinyHistory();
    await h.runtime.register(intToStrQueue);
    await h.runtime.converge();

    await burst(h.state, range(0, 20));
    const report = await h.runtime.converge();

    expect(report.converged).toBe(true);
    const strs = await h.state.list(Str.kind());
    expect(strs.map((s) => s.metadata.id).sort()).toEqual(range(0, 20).sort());
  });

  it('does not happen on the in-memory state, which hands the runtime each change inside its write', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({
      now: () => clock.now(),
      historyCapacity: 8,
      historyGap: 0,
    });
    const logs: LogRecord[] = [];
    runtime = createRuntime(state, { clock, logSink: (record) => logs.push(record) });
    await runtime.register(intToStr());
    await runtime.converge();

    await burst(state, range(0, 20));
    const report = await runtime.converge();

    expect(report.converged).toBe(true);
    expect((await state.list(Str.kind())).map((s) => s.metadata.id).sort()).toEqual(
      range(0, 20).sort(),
    );
    expect(logs.filter((r) => r.level === 'warn')).toEqual([]);
  });

  it('does not watch again once the runtime is stopped', async () => {
    const h = tinyHistory();
    await h.runtime.register(intToStr());
    await h.runtime.converge();
    await h.runtime.stop();

    await burst(h.state, range(0, 20));
    await new Promise<void>((resolve) => setImmediate(resolve));

    expect(h.logs.filter((r) => r.level === 'warn')).toEqual([]);
  });
});

/**
 * A state whose lists fail while `broken` is set, and so does a watch with `bootstrap` (it lists
 * first): etcd away, or a value under the kind that is no resource.
 */
class BreakableState extends QueuedWatchState {
  broken: Error | undefined;

  override list<S = unknown>(kind: Kind, options?: ListOptions) {
    if (this.broken) return Promise.reject(this.broken);
    return super.list<S>(kind, options);
  }

  override watchKind(kind: Kind, listener: WatchListener, options: WatchKindOptions = {}) {
    if (this.broken && options.bootstrap === true) return Promise.reject(this.broken);
    return super.watchKind(kind, listener, options);
  }
}

function breakable(): {
  state: BreakableState;
  runtime: Runtime;
  logs: LogRecord[];
  clock: SimulatedClock;
} {
  const clock = new SimulatedClock();
  const state = new BreakableState({ now: () => clock.now(), historyCapacity: 8, historyGap: 0 });
  const logs: LogRecord[] = [];
  runtime = createRuntime(state, { clock, logSink: (record) => logs.push(record) });
  return { state, runtime, logs, clock };
}

/** Moves the simulated clock by `ms`, firing the timers due, and lets what they start run. */
async function pass(h: { clock: SimulatedClock; runtime: Runtime }, ms: number): Promise<void> {
  h.clock.advance(ms);
  await h.runtime.settle();
}

describe('a watch that cannot be opened again', () => {
  it('is tried again with backoff, reported down meanwhile and logged once, until it opens', async () => {
    const h = breakable();
    await h.runtime.register(intToStr());
    await h.runtime.converge();

    h.state.broken = new Error('etcd key "k" holds no cosi resource');
    await burst(h.state, range(0, 20));
    await h.runtime.settle();
    // Tried again and again (the backoff is at most 10 s): still down, said once.
    for (let i = 0; i < 5; i++) await pass(h, 10_000);
    expect(h.runtime.watchesDown()).toEqual([
      { kind: { namespace: Int.namespace, type: Int.type }, error: h.state.broken },
    ]);
    const failures = h.logs.filter((r) => r.message.startsWith('watching again after'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      level: 'error',
      fields: { type: Int.type, error: 'etcd key "k" holds no cosi resource' },
    });

    h.state.broken = undefined;
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(h.runtime.watchesDown()).toEqual([]);
    expect(h.logs.map((r) => r.message)).toContain('watching again: the watch is back');
    // What the watch lost meanwhile is reconciled, and what comes next is delivered.
    expect((await h.state.list(Str.kind())).map((s) => s.metadata.id).sort()).toEqual(
      range(0, 20).sort(),
    );
    await h.state.create(Int.create('late', { value: 7 }));
    await h.runtime.converge();
    expect((await h.state.get<{ value: string }>(Str.pointer('late'))).spec.value).toBe('7');
  });
});

describe('a queue controller whose first list of its primaries fails', () => {
  it('is failing (backoff, its error), not a failed start; it lists again until it can', async () => {
    const h = breakable();
    await h.state.create(Int.create('1', { value: 1 }));
    h.state.broken = new Error('etcd away');
    await h.runtime.register(intToStrQueue);
    await h.runtime.start();
    for (let i = 0; i < 3; i++) await pass(h, 60_000);
    expect(h.runtime.status('IntToStrQueue')).toEqual({
      condition: 'backoff',
      lastError: h.state.broken,
    });
    expect(h.logs.filter((r) => r.level === 'error').map((r) => r.message)).toEqual([
      'listing the inputs failed: retrying',
    ]);

    h.state.broken = undefined;
    expect((await h.runtime.converge()).converged).toBe(true);
    expect((await h.state.get<{ value: string }>(Str.pointer('1'))).spec.value).toBe('1');
    expect(h.runtime.status('IntToStrQueue')?.condition).not.toBe('backoff');
  });
});
