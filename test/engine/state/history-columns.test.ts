import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createInMemoryState, defineResource, type ResourceEvent } from '../../../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A turn of the event loop: a WeakRef's target is kept alive until the job that made it ends. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const Note = defineResource<{ text: string }>({ type: 'Notes.test.cosi.dev' });

describe('the history of a kind', () => {
  it('does not keep the events it handed to watchers', async () => {
    const state = createInMemoryState();
    const events: WeakRef<ResourceEvent>[] = [];
    const watch = new AbortController();
    await state.watchKind(
      Note.kind(),
      (event) => {
        if (event.type === 'created') events.push(new WeakRef(event));
      },
      { signal: watch.signal },
    );
    for (let i = 0; i < 20; i++) await state.create(Note.create(`n${i}`, { text: '' }));
    await nextTurn();
    expect(events).toHaveLength(20);
    watch.abort();
    await nextTurn();
    gc();
    expect(events.filter((e) => e.deref() !== undefined)).toEqual([]);
  });

  it('still replays every change with its bookmark', async () => {
    const state = createInMemoryState();
    await state.create(Note.create('a', { text: 'one' }));
    const first = await state.get(Note.pointer('a'));
    await state.updateWithConflicts<{ text: string }>(Note.pointer('a'), (draft) => {
      draft.spec.text = 'two';
    });
    await state.destroy(Note.pointer('a'));
    const replayed: ResourceEvent[] = [];
    const watch = new AbortController();
    await state.watchKind(
      Note.kind(),
      (event) => {
        if (event.type !== 'bootstrapped' && event.type !== 'noop' && event.type !== 'errored') {
          replayed.push(event);
        }
      },
      { signal: watch.signal, tailEvents: 10 },
    );
    await nextTurn();
    watch.abort();
    expect(replayed.map((e) => e.type)).toEqual(['created', 'updated', 'destroyed']);
    expect(replayed[1]).toMatchObject({ old: first });
    expect(Object.keys(replayed[0] as object)).toEqual(['type', 'resource', 'bookmark']);
    expect(new Set(replayed.map((e) => e.bookmark)).size).toBe(3);
  });
});
