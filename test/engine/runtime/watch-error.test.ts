import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type Kind,
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
