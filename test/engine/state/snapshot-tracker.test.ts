/**
 * The snapshot tracker: each snapshot equals a full one, costs what changed since the last (it
 * lists nothing it already watches), and says what differs. On a domain of shelves and books.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  defineResource,
  newResource,
  RESOURCE_DEFINITION_TYPE,
  type InMemoryState,
} from '../../../src/index.js';
import { takeSnapshot } from '../../../src/engine/state/state-snapshot.js';
import {
  SnapshotTracker,
  type SnapshotChange,
} from '../../../src/engine/state/snapshot-tracker.js';

const Book = defineResource<{ title: string }>({
  type: 'Books.library.example.org',
  defaultNamespace: 'library',
  defaultSpec: () => ({ title: '' }),
});
const Shelf = defineResource<{ row: number }>({
  type: 'Shelves.library.example.org',
  defaultNamespace: 'library',
  defaultSpec: () => ({ row: 0 }),
});

let tracker: SnapshotTracker | undefined;
afterEach(() => tracker?.stop());

async function library(books: number): Promise<InMemoryState> {
  const state = createInMemoryState();
  for (let i = 0; i < books; i++) {
    await state.create(Book.create(`b${String(i).padStart(3, '0')}`, { title: `t${i}` }));
  }
  await state.create(Shelf.create('s1'));
  return state;
}

const describeChange = (c: SnapshotChange): string =>
  `${c.before ? `v${c.before.metadata.version}` : '+'}>${c.after ? `v${c.after.metadata.version}` : '-'} ${(c.after ?? c.before)?.metadata.id}`;

describe('the snapshot tracker', () => {
  it('takes everything first, then patches in what changed, equal to a full snapshot', async () => {
    const state = await library(100);
    tracker = new SnapshotTracker(state);
    const first = await tracker.take();
    expect(first).toEqual(await takeSnapshot(state));
    expect(first.changes).toBeUndefined();
    expect(tracker.listed).toBe(101);

    await state.updateWithConflicts(Book.pointer('b042'), (d) => {
      (d.spec as { title: string }).title = 'edited';
    });
    await state.create(Book.create('b200'));
    await state.destroy(Book.pointer('b007'));
    await state.create(Shelf.create('s2'));
    const next = await tracker.take();
    expect(tracker.listed).toBe(0);
    const { changes, ...snapshot } = next;
    expect(snapshot).toEqual(await takeSnapshot(state));
    expect(changes?.since).toBe(first.resources);
    expect(changes?.list.map(describeChange)).toEqual([
      'v1>- b007',
      'v1>v2 b042',
      '+>v1 b200',
      '+>v1 s2',
    ]);
    // Unchanged resources are the same objects.
    expect(next.resources[0]).toBe(first.resources[0]);
  });

  it('lists a kind that shows up only once, and says nothing of a resource created and destroyed between', async () => {
    const state = createInMemoryState();
    await state.create(Shelf.create('s1'));
    tracker = new SnapshotTracker(state);
    await tracker.take();
    for (let i = 0; i < 5; i++) await state.create(Book.create(`b${i}`));
    await state.create(Shelf.create('brief'));
    await state.destroy(Shelf.pointer('brief'));
    const next = await tracker.take();
    expect(tracker.listed).toBe(5);
    expect(next.changes?.list.map(describeChange)).toEqual([
      '+>v1 b0',
      '+>v1 b1',
      '+>v1 b2',
      '+>v1 b3',
      '+>v1 b4',
    ]);
    await state.create(Book.create('b5'));
    expect((await tracker.take()).changes?.list).toHaveLength(1);
    expect(tracker.listed).toBe(0);
  });

  it('patches many changes as it does a few', async () => {
    const state = await library(50);
    tracker = new SnapshotTracker(state);
    await tracker.take();
    for (let i = 0; i < 50; i += 2)
      await state.destroy(Book.pointer(`b${String(i).padStart(3, '0')}`));
    for (let i = 0; i < 20; i++) await state.create(Book.create(`c${i}`));
    const { changes, ...snapshot } = await tracker.take();
    expect(changes?.list).toHaveLength(45);
    expect(snapshot).toEqual(await takeSnapshot(state));
  });

  it('keeps the definitions apart, as a full snapshot does', async () => {
    const state = await library(1);
    tracker = new SnapshotTracker(state);
    await tracker.take();
    await state.create(
      newResource(
        { namespace: 'meta', type: RESOURCE_DEFINITION_TYPE, id: 'books.library.example.org' },
        { type: Book.type },
      ),
    );
    const { changes: _changes, ...snapshot } = await tracker.take();
    expect(snapshot).toEqual(await takeSnapshot(state));
    expect(snapshot.definitions).toHaveLength(1);
  });

  it('lists everything again when a watch fell behind and lost events', async () => {
    const state = createInMemoryState({ historyCapacity: 4, historyGap: 0 });
    await state.create(Shelf.create('s1'));
    tracker = new SnapshotTracker(state);
    await tracker.take();
    // Writes that do not yield in between: the watch's queue overruns the history.
    await Promise.all(Array.from({ length: 10 }, (_, i) => state.create(Shelf.create(`x${i}`))));
    const next = await tracker.take();
    expect(next.changes).toBeUndefined();
    expect(tracker.listed).toBe(11);
    expect(next).toEqual(await takeSnapshot(state));
    await state.create(Shelf.create('after'));
    expect((await tracker.take()).changes?.list).toHaveLength(1);
  });
});
