/**
 * The in-memory state's `inline` watches: a change handed over inside the write that made it,
 * once the watch has caught up, and the order every watcher sees kept when a listener writes.
 */
import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  defineResource,
  type InMemoryState,
  type StateEvent,
  type WatchKindOptions,
} from '../../../src/index.js';

const Volume = defineResource<{ sizeGiB: number }>({
  type: 'Volumes.storage.example.org',
  defaultNamespace: 'storage',
  defaultSpec: () => ({ sizeGiB: 1 }),
});

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function describeEvent(event: StateEvent): string {
  return event.type === 'created' || event.type === 'updated' || event.type === 'destroyed'
    ? `${event.type} ${event.resource.metadata.id}`
    : event.type;
}

/** Watches the volumes; `react` runs on each event, after it was noted. */
async function watchVolumes(
  state: InMemoryState,
  options: WatchKindOptions,
  react: (event: StateEvent) => unknown = () => undefined,
): Promise<string[]> {
  const seen: string[] = [];
  await state.watchKind(
    Volume.kind(),
    (event) => {
      seen.push(describeEvent(event));
      return react(event);
    },
    options,
  );
  return seen;
}

describe('an inline watch', () => {
  it('has a change inside the write once it has caught up; a queued one a microtask later', async () => {
    const state = createInMemoryState();
    const inline = await watchVolumes(state, { inline: true });
    const queued = await watchVolumes(state, {});
    await settle();

    const written = state.create(Volume.create('a'));
    expect(inline).toEqual(['created a']);
    expect(queued).toEqual([]);
    await written;
    await settle();
    expect(queued).toEqual(['created a']);
  });

  it('has its initial events first, and what was written before they were handed over after them', async () => {
    const state = createInMemoryState();
    await state.create(Volume.create('a'));
    // Not awaited: the watch begins, and `b` is written before its initial events went out.
    const watching = watchVolumes(state, { inline: true, bootstrap: true });
    void state.create(Volume.create('b'));
    const seen = await watching;

    await settle();
    expect(seen).toEqual(['created a', 'bootstrapped', 'created b']);
    void state.create(Volume.create('c'));
    expect(seen.at(-1)).toBe('created c');
  });

  it('lets a listener write: every watcher sees that change after the one it was handed', async () => {
    const state = createInMemoryState();
    const writer = await watchVolumes(state, { inline: true }, (event) => {
      if (event.type === 'created' && event.resource.metadata.id === 'a') {
        void state.create(Volume.create('b'));
      }
    });
    const inline = await watchVolumes(state, { inline: true });
    const queued = await watchVolumes(state, {});
    await settle();

    await state.create(Volume.create('a'));
    await settle();

    expect(writer).toEqual(['created a', 'created b']);
    expect(inline).toEqual(['created a', 'created b']);
    expect(queued).toEqual(['created a', 'created b']);
  });

  it('does not hand a watch begun meanwhile a change made before it began', async () => {
    const state = createInMemoryState();
    let late: string[] = [];
    let tailed: string[] = [];
    await watchVolumes(state, { inline: true }, async (event) => {
      if (event.type !== 'created' || event.resource.metadata.id !== 'a') return;
      void state.create(Volume.create('b'));
      // Both begin after `b` was written, while it is still on its way out.
      [late, tailed] = await Promise.all([
        watchVolumes(state, { inline: true }),
        watchVolumes(state, { inline: true, tailEvents: 1 }),
      ]);
    });
    await settle();

    await state.create(Volume.create('a'));
    await settle();
    await state.create(Volume.create('c'));
    await settle();

    expect(late).toEqual(['created c']);
    expect(tailed).toEqual(['created b', 'created c']);
  });

  it('waits for the promise its listener returned, then has the rest in order, then inline again', async () => {
    const state = createInMemoryState();
    let release = (): void => undefined;
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen = await watchVolumes(state, { inline: true }, (event) =>
      event.type === 'created' && event.resource.metadata.id === 'a' ? stuck : undefined,
    );
    await settle();

    void state.create(Volume.create('a'));
    void state.create(Volume.create('b'));
    void state.create(Volume.create('c'));
    await settle();
    expect(seen).toEqual(['created a']);

    release();
    await settle();
    expect(seen).toEqual(['created a', 'created b', 'created c']);
    void state.create(Volume.create('d'));
    expect(seen.at(-1)).toBe('created d');
  });

  it('reports a listener that throws; the write stands and the watch goes on', async () => {
    const errors: unknown[] = [];
    const state = createInMemoryState({ onListenerError: (error) => errors.push(error) });
    const seen = await watchVolumes(state, { inline: true }, (event) => {
      if (event.type === 'created' && event.resource.metadata.id === 'a') throw new Error('boom');
    });
    await settle();

    await expect(state.create(Volume.create('a'))).resolves.toBeDefined();
    void state.create(Volume.create('b'));

    expect(errors).toEqual([new Error('boom')]);
    expect((await state.list(Volume.kind())).map((v) => v.metadata.id)).toEqual(['a', 'b']);
    expect(seen).toEqual(['created a', 'created b']);
  });
});
