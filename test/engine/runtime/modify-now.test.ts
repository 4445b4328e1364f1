/**
 * `modifyNow`: the in-memory state's modify that answers a synchronous updater with the stored
 * resource itself, which the controller facade uses so that a write costs no promise of its own.
 * The state answers as `modifyWithResult` would, only sooner; a controller's writes, its counters
 * and what it reports do not depend on whether the state offers it.
 */
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type Controller,
  type State,
} from '../../../src/index.js';
import { Int, Str } from './test-controllers.js';

describe('InMemoryState.modifyNow', () => {
  it('returns the stored resource, not a promise, when the updater is synchronous', async () => {
    const state = createInMemoryState();
    const created = state.modifyNow(Str.create('a'), (draft) => {
      draft.spec.value = 'one';
    });
    expect(created).not.toBeInstanceOf(Promise);
    expect(created).toBe(await state.get(Str.pointer('a')));
    const updated = state.modifyNow(Str.create('a'), (draft) => {
      draft.spec.value = 'two';
    });
    expect(updated).not.toBeInstanceOf(Promise);
    expect(updated).toMatchObject({ metadata: { version: 2 }, spec: { value: 'two' } });
    // Nothing changed: the stored version itself, not a new one.
    expect(state.modifyNow(Str.create('a'), () => undefined)).toBe(updated);
  });

  it('returns a promise when the updater is asynchronous', async () => {
    const state = createInMemoryState();
    const pending = state.modifyNow(Str.create('a'), async (draft) => {
      await Promise.resolve();
      draft.spec.value = 'later';
    });
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).resolves.toMatchObject({ spec: { value: 'later' } });
  });

  it('throws at the call what modifyWithResult rejects with', async () => {
    const state = createInMemoryState();
    await state.create(Str.create('a'), { owner: 'Someone' });
    const update = (draft: { spec: { value: string } }) => {
      draft.spec.value = 'mine';
    };
    expect(() => state.modifyNow(Str.create('a'), update, { owner: 'Other' })).toThrow(
      ConflictError,
    );
    await expect(
      state.modifyWithResult(Str.create('a'), update, { owner: 'Other' }),
    ).rejects.toBeInstanceOf(ConflictError);
  });
});

/** The state as a backend that cannot write synchronously: every method but `modifyNow`. */
function withoutModifyNow(state: State): State {
  return new Proxy(state, {
    get(target, key) {
      if (key === 'modifyNow') return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value.bind(target) as unknown) : value;
    },
  });
}

/**
 * The state as a backend that can neither write nor read synchronously (the etcd state): no
 * `modifyNow`, no `peekVersion`.
 */
function withoutSyncReads(state: State): State {
  return new Proxy(withoutModifyNow(state), {
    get(target, key) {
      if (key === 'peekVersion') return undefined;
      return Reflect.get(target, key, target) as unknown;
    },
  });
}

/** Creates, updates, leaves alone and fails to write (a resource owned by someone else). */
const writer: Controller = {
  name: 'Writer',
  inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
  outputs: [{ type: Str.type, kind: 'shared' }],
  async run(rt, _signal, log) {
    for await (const _ of rt.events()) {
      for (const input of await rt.list(Int.kind())) {
        const stored = await rt.modifyWithResult(Str.create(input.metadata.id), (draft) => {
          draft.spec.value = String((input.spec as { value: number }).value);
        });
        // The same again: a no-op.
        await rt.modify(Str.create(input.metadata.id), (draft) => {
          draft.spec.value = stored.spec.value;
        });
      }
      await rt
        .modify(Str.create('theirs'), (draft) => {
          draft.spec.value = 'mine';
        })
        .then(
          () => log.info('wrote theirs'),
          (error: unknown) => log.info(`refused: ${(error as Error).name}`),
        );
    }
  },
};

async function runWriter(wrap: (state: State) => State) {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const logs: string[] = [];
  const runtime = createRuntime(wrap(state), {
    clock,
    logSink: (entry) => logs.push(`${String(entry.fields.controller)}: ${entry.message}`),
  });
  await state.create(Str.create('theirs', { value: 'theirs' }), { owner: 'Someone' });
  for (const i of [1, 2, 3]) await state.create(Int.create(`i${i}`, { value: i }));
  await runtime.register(writer);
  const report = await runtime.converge();
  await state.create(Int.create('i4', { value: 4 }));
  await runtime.converge();
  const metrics = runtime.metrics('Writer');
  await runtime.stop();
  const strs = await state.list(Str.kind());
  return {
    converged: report.converged,
    strs: strs.map((r) => [r.metadata.id, r.metadata.version, r.metadata.owner, r.spec]),
    reads: metrics?.reads,
    writes: metrics?.writes,
    logs: logs.filter((line) => line.startsWith('Writer')),
  };
}

describe('a controller writing through modifyNow', () => {
  it('ends where a state without it ends, with the same counters and reports', async () => {
    const now = await runWriter((state) => state);
    const later = await runWriter(withoutModifyNow);
    expect(now.converged).toBe(true);
    expect(now.strs).toContainEqual(['i4', 1, 'Writer', { value: '4' }]);
    expect(now.strs).toContainEqual(['theirs', 1, 'Someone', { value: 'theirs' }]);
    expect(now.logs).toContain('Writer: refused: ConflictError');
    expect(now).toEqual(later);
  });

  it('counts the same writes and reads on a state that cannot be peeked (etcd)', async () => {
    const now = await runWriter((state) => state);
    const unpeeked = await runWriter(withoutSyncReads);
    // Four inputs: a create and a no-op each, and a refused write every pass (two passes).
    expect(now.writes).toBe(4 + 2);
    // The no-op modifies are no writes there either: the facade tells them apart by the version
    // the state handed the updater, not by a peek before.
    expect(unpeeked).toEqual(now);
  });
});
