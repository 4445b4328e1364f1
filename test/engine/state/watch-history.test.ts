/**
 * The in-memory state's history: its capacity, the gap, what a watcher that falls behind gets,
 * and which changes carry a bookmark (`skipBookmarks`). (What every backend must do with tails
 * and bookmarks is in the conformance suite.)
 */
import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  DEFAULT_HISTORY_CAPACITY,
  defineResource,
  isBufferOverrun,
  isInvalidBookmark,
  type InMemoryState,
  type StateEvent,
} from '../../../src/index.js';

const Volume = defineResource<{ sizeGiB: number }>({
  type: 'Volumes.storage.example.org',
  defaultNamespace: 'storage',
  defaultSpec: () => ({ sizeGiB: 1 }),
});
const Snapshot = defineResource<{ of: string }>({
  type: 'Snapshots.storage.example.org',
  defaultNamespace: 'storage',
  defaultSpec: () => ({ of: '' }),
});

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function describeEvent(event: StateEvent): string {
  switch (event.type) {
    case 'created':
    case 'updated':
    case 'destroyed':
      return `${event.type} ${event.resource.metadata.id}`;
    case 'errored':
      return isBufferOverrun(event.error) ? 'errored: buffer overrun' : 'errored';
    default:
      return event.type;
  }
}

/** Records a watch; its listener does not return until `release` is called once. */
function stuckListener(): {
  readonly seen: string[];
  readonly events: StateEvent[];
  readonly listener: (event: StateEvent) => Promise<void> | undefined;
  readonly release: () => void;
} {
  const seen: string[] = [];
  const events: StateEvent[] = [];
  let release = (): void => undefined;
  const stuck = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    seen,
    events,
    release: () => release(),
    listener: (event) => {
      events.push(event);
      seen.push(describeEvent(event));
      return seen.length === 1 ? stuck : undefined;
    },
  };
}

async function createVolumes(state: InMemoryState, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++) await state.create(Volume.create(`v${i}`));
}

describe('in-memory watch history', () => {
  // Ported from cosi-project/runtime pkg/state/impl/inmem/local_test.go TestBufferOverrun
  it('ends the watches of a listener stuck while more changes than the capacity are written', async () => {
    const state = createInMemoryState({ historyCapacity: 10, historyGap: 5 });
    const kindWatch = stuckListener();
    const pointerWatch = stuckListener();
    await state.watchKind(Volume.kind(), kindWatch.listener);
    await state.watch(Volume.pointer('v0'), pointerWatch.listener);

    await createVolumes(state, 10);
    for (let i = 0; i < 20; i++) {
      await state.modify(Volume.create('v0'), (draft) => {
        draft.spec.sizeGiB = i + 2;
      });
    }
    kindWatch.release();
    pointerWatch.release();
    await settle();

    expect(kindWatch.seen).toEqual(['created v0', 'errored: buffer overrun']);
    expect(pointerWatch.seen).toEqual(['destroyed v0', 'errored: buffer overrun']);
    const errored = kindWatch.events[1] as Extract<StateEvent, { type: 'errored' }>;
    expect(errored.error.message).toContain(
      'buffer overrun: namespace "storage" type "Volumes.storage.example.org"',
    );

    // The watches are over.
    await state.create(Volume.create('after'));
    await settle();
    expect(kindWatch.seen).toHaveLength(2);
    expect(pointerWatch.seen).toHaveLength(2);
  });

  it('overruns a watcher when more changes than the capacity are written without yielding', async () => {
    const state = createInMemoryState({ historyCapacity: 10 });
    const seen: string[] = [];
    await state.watchKind(Volume.kind(), (event) => seen.push(describeEvent(event)));
    await Promise.all(Array.from({ length: 11 }, (_, i) => state.create(Volume.create(`v${i}`))));
    await settle();
    expect(seen).toEqual(['errored: buffer overrun']);
  });

  it('does not overrun a watcher as long as it stays within the capacity', async () => {
    const state = createInMemoryState({ historyCapacity: 10 });
    const seen: string[] = [];
    await state.watchKindAggregated(Volume.kind(), (batch) => {
      seen.push(batch.map(describeEvent).join(', '));
    });
    await Promise.all(Array.from({ length: 10 }, (_, i) => state.create(Volume.create(`v${i}`))));
    await settle();
    // One burst, one batch.
    expect(seen).toEqual([Array.from({ length: 10 }, (_, i) => `created v${i}`).join(', ')]);
  });

  // Ported from cosi-project/runtime pkg/state/impl/inmem/local_test.go TestNoBufferOverrunDynamic
  it('never overruns a watcher that keeps up, however many changes there are', async () => {
    const state = createInMemoryState({ historyCapacity: 4, historyGap: 1 });
    const seen: string[] = [];
    await state.watchKind(Volume.kind(), (event) => seen.push(describeEvent(event)));
    await createVolumes(state, 100);
    await settle();
    expect(seen).toHaveLength(100);
    expect(seen.every((s) => s.startsWith('created'))).toBe(true);
  });

  it('does not overrun a quiet watcher of one resource while the others change', async () => {
    const state = createInMemoryState({ historyCapacity: 4, historyGap: 1 });
    const seen: string[] = [];
    await state.create(Volume.create('quiet'));
    await state.watch(Volume.pointer('quiet'), (event) => seen.push(describeEvent(event)));
    await settle();
    await createVolumes(state, 50);
    await state.modify(Volume.create('quiet'), (draft) => {
      draft.spec.sizeGiB = 2;
    });
    await settle();
    expect(seen).toEqual(['created quiet', 'updated quiet']);
  });

  it('keeps the kinds apart: changes of another kind do not count towards the lag', async () => {
    const state = createInMemoryState({ historyCapacity: 4, historyGap: 1 });
    const slow = stuckListener();
    await state.watchKind(Volume.kind(), slow.listener);
    await state.create(Volume.create('v0'));
    for (let i = 0; i < 20; i++) await state.create(Snapshot.create(`s${i}`));
    await state.create(Volume.create('v1'));
    slow.release();
    await settle();
    expect(slow.seen).toEqual(['created v0', 'created v1']);
  });

  it('rejects a bookmark whose change has left the history (capacity minus gap)', async () => {
    const state = createInMemoryState({ historyCapacity: 10, historyGap: 5 });
    const events: StateEvent[] = [];
    await state.watchKind(Volume.kind(), (event) => events.push(event));
    await createVolumes(state, 10);
    await settle();
    const bookmarkOf = (i: number): string => (events[i] as { bookmark: string }).bookmark;

    // Changes 0-9 written: the oldest bookmark still valid is that of change 5.
    const tooOld = await state
      .watchKind(Volume.kind(), () => undefined, { startFromBookmark: bookmarkOf(4) })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isInvalidBookmark(tooOld)).toBe(true);

    const seen: string[] = [];
    await state.watchKind(Volume.kind(), (event) => seen.push(describeEvent(event)), {
      startFromBookmark: bookmarkOf(5),
    });
    await settle();
    expect(seen).toEqual(['created v6', 'created v7', 'created v8', 'created v9']);
  });

  it('caps tailEvents at the capacity minus the gap', async () => {
    const state = createInMemoryState({ historyCapacity: 10, historyGap: 5 });
    await createVolumes(state, 12);
    const seen: string[] = [];
    await state.watchKind(Volume.kind(), (event) => seen.push(describeEvent(event)), {
      tailEvents: 100,
    });
    const one: string[] = [];
    await state.watch(Volume.pointer('v1'), (event) => one.push(describeEvent(event)), {
      tailEvents: 100,
    });
    await settle();
    expect(seen).toEqual(['created v7', 'created v8', 'created v9', 'created v10', 'created v11']);
    // v1's creation has left the usable history.
    expect(one).toEqual([]);
  });

  // Ported from cosi-project/runtime pkg/state/impl/inmem/local_test.go TestWatchInvalidBookmark
  it('rejects a tampered bookmark and one of another kind', async () => {
    const state = createInMemoryState();
    const events: StateEvent[] = [];
    await state.watchKind(Volume.kind(), (event) => events.push(event));
    await state.create(Volume.create('v0'));
    await state.create(Snapshot.create('s0'));
    await settle();
    const bookmark = (events[0] as { bookmark: string }).bookmark;
    // Another first character: the bookmark's random part may start with any letter.
    const tampered = `${bookmark.startsWith('x') ? 'y' : 'x'}${bookmark.slice(1)}`;

    for (const [kind, startFromBookmark] of [
      [Volume.kind(), tampered],
      [Snapshot.kind(), bookmark],
    ] as const) {
      const error = await state
        .watchKind(kind, () => undefined, { startFromBookmark })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isInvalidBookmark(error)).toBe(true);
    }
  });

  it('resumes from the bookmark of bootstrapped on a kind that had no changes yet', async () => {
    const state = createInMemoryState();
    const events: StateEvent[] = [];
    await state.watchKind(Volume.kind(), (event) => events.push(event), { bootstrap: true });
    await settle();
    await state.create(Volume.create('v0'));
    const seen: string[] = [];
    await state.watchKind(Volume.kind(), (event) => seen.push(describeEvent(event)), {
      startFromBookmark: (events[0] as { bookmark: string }).bookmark,
    });
    await settle();
    expect(seen).toEqual(['created v0']);
  });

  it('refuses a history capacity below 1 and a gap that leaves no usable history', () => {
    expect(() => createInMemoryState({ historyCapacity: 0 })).toThrow(RangeError);
    expect(() => createInMemoryState({ historyCapacity: 10, historyGap: 10 })).toThrow(RangeError);
    expect(DEFAULT_HISTORY_CAPACITY).toBeGreaterThanOrEqual(10_000);
  });
});

// `skipBookmarks`: a watcher that never resumes (the runtime's routing) lets the in-memory state
// publish changes without making a bookmark for each, as long as no other watcher of the kind
// may read one. Every watcher that did not ask for that still gets a bookmark on every change.

/** `type id` and whether the event carried a bookmark. */
function seen(event: StateEvent): string {
  if (event.type === 'errored') return isBufferOverrun(event.error) ? 'overrun' : 'errored';
  if (!('resource' in event)) return event.type;
  const marked = typeof event.bookmark === 'string' && event.bookmark !== '' ? ' +bookmark' : '';
  return `${event.type} ${event.resource.metadata.id}${marked}`;
}

describe('watchKind with skipBookmarks', () => {
  it('hands changes over without bookmarks while no watcher of the kind reads them', async () => {
    const state = createInMemoryState();
    const skipper: string[] = [];
    await state.watchKind(Volume.kind(), (e) => skipper.push(seen(e)), { skipBookmarks: true });
    await state.create(Volume.create('a'));
    await state.modify(Volume.create('a'), (d) => {
      d.spec.sizeGiB = 2;
    });
    await state.destroy(Volume.pointer('a'));
    await settle();
    expect(skipper).toEqual(['created a', 'updated a', 'destroyed a']);
  });

  it('still gives every other watcher its bookmarks, and the skipper too then', async () => {
    const state = createInMemoryState();
    const skipper: string[] = [];
    const reader: string[] = [];
    const stop = new AbortController();
    await state.watchKind(Volume.kind(), (e) => skipper.push(seen(e)), { skipBookmarks: true });
    await state.watchKind(Volume.kind(), (e) => reader.push(seen(e)), { signal: stop.signal });
    await state.create(Volume.create('a'));
    await settle();
    expect(reader).toEqual(['created a +bookmark']);
    expect(skipper).toEqual(['created a +bookmark']);
    // The reader gone, nobody reads them: none are made.
    stop.abort();
    await state.create(Volume.create('b'));
    await settle();
    expect(skipper).toEqual(['created a +bookmark', 'created b']);
  });

  it('gives a watcher of one resource its bookmarks', async () => {
    const state = createInMemoryState();
    const skipper: string[] = [];
    const one: string[] = [];
    await state.watchKind(Volume.kind(), (e) => skipper.push(seen(e)), { skipBookmarks: true });
    await state.watch(Volume.pointer('a'), (e) => one.push(seen(e)));
    await state.create(Volume.create('a'));
    await settle();
    // The first is the initial state (no bookmark: nothing to resume after yet).
    expect(one).toEqual(['destroyed a', 'created a +bookmark']);
  });

  it('counts a reader that fell behind and was then stopped as gone once, not twice', async () => {
    const state = createInMemoryState({ historyCapacity: 10 });
    const stop = new AbortController();
    const behind: string[] = [];
    const reader: string[] = [];
    await state.watchKind(Volume.kind(), (e) => behind.push(seen(e)), { signal: stop.signal });
    // Eleven changes without yielding: the first reader overruns (and unregisters).
    await Promise.all(Array.from({ length: 11 }, (_, i) => state.create(Volume.create(`v${i}`))));
    await settle();
    expect(behind).toEqual(['overrun']);
    stop.abort();
    // Now a second reader and a skipper: the second reader must still get bookmarks.
    await state.watchKind(Volume.kind(), (e) => reader.push(seen(e)));
    await state.watchKind(Volume.kind(), () => undefined, { skipBookmarks: true });
    await state.create(Volume.create('late'));
    await settle();
    expect(reader).toEqual(['created late +bookmark']);
  });
});
