import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  defineResource,
  isBufferOverrun,
  isTombstone,
  watchFor,
  type Resource,
} from '../../../src/index.js';

interface VolumeSpec {
  sizeGiB: number;
}

const Volume = defineResource<VolumeSpec>({
  type: 'Volumes.storage.example.org',
  defaultNamespace: 'storage',
  defaultSpec: () => ({ sizeGiB: 1 }),
});
const data = Volume.pointer('data');

/** Lets watch deliveries run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Tracks whether a promise has settled, to assert that a wait is still pending. */
function track<T>(promise: Promise<T>): {
  readonly done: () => boolean;
  readonly promise: Promise<T>;
} {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  return { done: () => done, promise: tracked };
}

async function resize(state: ReturnType<typeof createInMemoryState>, size: number): Promise<void> {
  await state.modify(Volume.create('data'), (draft) => {
    draft.spec.sizeGiB = size;
  });
}

describe('watchFor', () => {
  // Ported from cosi-project/runtime pkg/state/conformance/state.go TestWatchFor
  it('waits for a creation, empty finalizers, a phase and a destruction in turn', async () => {
    const state = createInMemoryState();

    const created = track(watchFor(state, data, { eventTypes: ['created'] }));
    await settle();
    expect(created.done()).toBe(false);
    await state.create(Volume.create('data'));
    expect((await created.promise).metadata.id).toBe('data');

    const free = await watchFor(state, data, { finalizersEmpty: true });
    expect(free.metadata.version).toBe(1);

    const tearingDown = track(watchFor(state, data, { phases: ['tearingDown'] }));
    await settle();
    expect(tearingDown.done()).toBe(false);
    expect(await state.teardown(data)).toBe(true);
    expect((await tearingDown.promise).metadata.phase).toBe('tearingDown');

    const destroyed = track(watchFor(state, data, { eventTypes: ['destroyed'] }));
    await state.addFinalizer(data, 'backup');
    await state.removeFinalizer(data, 'backup');
    await settle();
    expect(destroyed.done()).toBe(false);
    await state.destroy(data);
    const last = await destroyed.promise;
    expect(last.metadata).toMatchObject({ id: 'data', version: 4 });
    expect(isTombstone(last)).toBe(false);
  });

  it('returns the current state at once when it already matches', async () => {
    const state = createInMemoryState();
    await state.create(Volume.create('data', { sizeGiB: 20 }));
    const volume = await watchFor<VolumeSpec>(state, data, {
      eventTypes: ['created', 'updated'],
      condition: (r) => r.spec.sizeGiB >= 10,
    });
    expect(volume.spec.sizeGiB).toBe(20);
  });

  it('waits until the resource matches the predicate', async () => {
    const state = createInMemoryState();
    await state.create(Volume.create('data'));
    const big = track(
      watchFor<VolumeSpec>(state, data, { condition: (r) => r.spec.sizeGiB >= 10 }),
    );
    await resize(state, 5);
    await settle();
    expect(big.done()).toBe(false);
    await resize(state, 10);
    expect((await big.promise).spec.sizeGiB).toBe(10);
  });

  it('with finalizersEmpty ignores the tombstone of a missing resource (destroyed never matches)', async () => {
    const state = createInMemoryState();
    const free = track(watchFor(state, data, { finalizersEmpty: true }));
    await settle();
    expect(free.done()).toBe(false);
    await state.create(Volume.create('data', undefined, { finalizers: ['backup'] }));
    await settle();
    expect(free.done()).toBe(false);
    await state.removeFinalizer(data, 'backup');
    const volume = await free.promise;
    expect(volume.metadata.finalizers).toEqual([]);
    expect(volume.metadata.version).toBe(2);
  });

  it('without conditions returns the first event: the tombstone of a missing resource', async () => {
    const state = createInMemoryState();
    expect(isTombstone(await watchFor(state, data))).toBe(true);
  });

  it('matches the tombstone of a missing resource when waiting for destroyed', async () => {
    const state = createInMemoryState();
    const gone: Resource = await watchFor(state, data, { eventTypes: ['destroyed'] });
    expect(isTombstone(gone)).toBe(true);
  });

  it('rejects with the error the predicate throws', async () => {
    const state = createInMemoryState();
    await state.create(Volume.create('data'));
    await expect(
      watchFor(state, data, {
        condition: () => {
          throw new Error('cannot judge');
        },
      }),
    ).rejects.toThrow('cannot judge');
  });

  it('rejects with the reason of its signal when aborted, and stops watching', async () => {
    const state = createInMemoryState();
    const controller = new AbortController();
    let calls = 0;
    const waiting = watchFor(state, data, {
      eventTypes: ['created'],
      condition: () => {
        calls++;
        return false;
      },
      signal: controller.signal,
    });
    await settle();
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    await state.create(Volume.create('data'));
    await settle();
    expect(calls).toBe(0);
  });

  it('rejects at once with an already aborted signal', async () => {
    const state = createInMemoryState();
    await state.create(Volume.create('data'));
    await expect(watchFor(state, data, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('rejects when its watch ends with errored instead of waiting forever', async () => {
    const state = createInMemoryState({ historyCapacity: 3, historyGap: 0 });
    const never = watchFor(state, data, { condition: () => false });
    await settle();
    // The resource changes, then more than the capacity is written before the watch reads it.
    await Promise.all([
      state.create(Volume.create('data')),
      ...['a', 'b', 'c', 'd'].map((id) => state.create(Volume.create(id))),
    ]);
    const error: unknown = await never.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isBufferOverrun(error)).toBe(true);
  });
});
