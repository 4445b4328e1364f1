/**
 * `skipBookmarks`: a watcher that never resumes (the runtime's routing) lets the in-memory state
 * publish changes without making a bookmark for each, as long as no other watcher of the kind
 * may read one. Every watcher that did not ask for that still gets a bookmark on every change.
 */
import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  defineResource,
  isBufferOverrun,
  type StateEvent,
} from '../../../src/index.js';

const Volume = defineResource<{ sizeGiB: number }>({
  type: 'Volumes.storage.example.org',
  defaultNamespace: 'storage',
  defaultSpec: () => ({ sizeGiB: 1 }),
});

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

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
