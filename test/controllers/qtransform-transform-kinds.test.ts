/**
 * A queue transform applies a synchronous `transform` without a turn of the microtask queue and
 * awaits an asynchronous one: both behave alike, writes, requeues, failures and destroyOutput.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createQTransformController,
  createRuntime,
  destroyOutput,
  RequeueError,
  requeueAfter,
  SimulatedClock,
  type Draft,
  type QController,
  type State,
  type Updater,
  type UpdateOptions,
} from '../../src/index.js';
import type { ModifyProgress, SyncCore } from '../../src/engine/state/sync-core.js';
import { A, B, createHarness, ids, type ASpec, type BSpec, type Harness } from './harness.js';

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.runtime.stop();
});

/**
 * A -> B copying `str`; what `str` says decides the rest: `requeue` requeues after 100 ms (once
 * per input), `requeue-failing` requeues with an error, `fail` throws, `gone` has no output.
 */
function controller(kind: 'sync' | 'async', calls: string[]): QController {
  const requeued = new Set<string>();
  const transform = (a: { metadata: { id: string }; spec: ASpec }, b: { spec: BSpec }): void => {
    calls.push(`${a.metadata.id}@${h.clock.now() - start}`);
    b.spec.out = a.spec.str;
    const once = !requeued.has(a.metadata.id);
    requeued.add(a.metadata.id);
    if (a.spec.str === 'requeue' && once) throw requeueAfter(100);
    if (a.spec.str === 'requeue-failing' && once) throw new RequeueError(100, new Error('not yet'));
    if (a.spec.str === 'fail') throw new Error('cannot');
    if (a.spec.str === 'gone') throw destroyOutput();
  };
  return createQTransformController<ASpec, BSpec>({
    name: `AToB-${kind}`,
    input: A,
    output: B,
    mapMetadata: (a) => B.create(a.metadata.id),
    unmapMetadata: (b) => A.pointer(b.metadata.id),
    transform:
      kind === 'sync'
        ? (_ctx, a, b) => transform(a, b)
        : async (_ctx, a, b) => {
            await Promise.resolve();
            transform(a, b);
          },
  });
}

let start = 0;

describe.each(['sync', 'async'] as const)('a queue transform with a %s transform', (kind) => {
  it('writes the output of every input', async () => {
    await h.runtime.register(controller(kind, []));
    for (const id of ['x', 'y']) await h.state.create(A.create(id, { str: `s-${id}`, int: 0 }));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await h.state.list<BSpec>(B.kind())).map((b) => b.spec.out)).toEqual(['s-x', 's-y']);
  });

  it('writes the output on a plain requeue and comes back after its interval', async () => {
    const calls: string[] = [];
    await h.runtime.register(controller(kind, calls));
    start = h.clock.now();
    await h.state.create(A.create('r', { str: 'requeue', int: 0 }));
    const report = await h.runtime.converge();
    expect(report.errors).toBe(0);
    expect(calls).toEqual(['r@0', 'r@100']);
    expect((await h.state.get<BSpec>(B.pointer('r'))).spec.out).toBe('requeue');
  });

  it('writes nothing on a requeue with an error, and retries after its interval', async () => {
    const calls: string[] = [];
    await h.runtime.register(controller(kind, calls));
    start = h.clock.now();
    await h.state.create(A.create('r', { str: 'requeue-failing', int: 0 }));
    const report = await h.runtime.converge();
    expect(report.errors).toBe(1);
    expect(calls).toEqual(['r@0', 'r@100']);
    // Written once only: by the retry.
    expect((await h.state.get<BSpec>(B.pointer('r'))).metadata.version).toBe(1);
  });

  it('fails the item when transform throws, and writes nothing', async () => {
    await h.runtime.register(controller(kind, []));
    await h.state.create(A.create('f', { str: 'fail', int: 0 }));
    const report = await h.runtime.converge({ maxAttempts: 2 });
    expect(report.converged).toBe(false);
    expect(report.controllers[0]?.lastError?.message).toBe('cannot');
    expect(await ids(h, B.kind())).toEqual([]);
  });

  it('tears the output down on destroyOutput', async () => {
    await h.runtime.register(controller(kind, []));
    await h.state.create(A.create('g', { str: 'kept', int: 0 }));
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual(['g']);
    await h.state.modify(A.create('g'), (d) => {
      d.spec.str = 'gone';
    });
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(await ids(h, B.kind())).toEqual([]);
  });
});

describe('a queue transform', () => {
  it.each([
    ['sync', false],
    ['async', true],
  ] as const)(
    'hands the state an updater that returns a promise only for an async transform (%s)',
    async (kind, promised) => {
      const clock = new SimulatedClock();
      const inner = createInMemoryState({ now: () => clock.now() });
      const returned: boolean[] = [];
      // Records whether each updater the controller gives the state returned a promise.
      const recording =
        <S>(fn: Updater<S>): Updater<S> =>
        (draft: Draft<S>) => {
          const result = fn(draft);
          returned.push(result instanceof Promise);
          return result;
        };
      // Both ways the runtime may write: `modifyNow` where the state has it (the in-memory one).
      const watching: Partial<State & SyncCore> = {
        modifyWithResult: <S>(empty: Draft<S>, fn: Updater<S>, options?: UpdateOptions) =>
          inner.modifyWithResult(empty, recording(fn), options),
        modifyNow: <S>(
          empty: Draft<S>,
          fn: Updater<S>,
          options?: UpdateOptions,
          progress?: ModifyProgress,
        ) => inner.modifyNow(empty, recording(fn), options, progress),
      };
      const state = new Proxy(inner, {
        get(target, prop) {
          const own = (watching as Record<PropertyKey, unknown>)[prop];
          if (own !== undefined) return own;
          const value: unknown = Reflect.get(target, prop);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
      h = { state: inner, clock, runtime: createRuntime(state, { clock }) };
      await h.runtime.register(controller(kind, []));
      await inner.create(A.create('x', { str: 'x', int: 0 }));
      await h.runtime.converge();
      expect(returned).toEqual([promised]);
      expect((await inner.get<BSpec>(B.pointer('x'))).spec.out).toBe('x');
    },
  );
});
