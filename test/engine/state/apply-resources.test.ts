import { describe, expect, it } from 'vitest';
import {
  applyResources,
  createInMemoryState,
  defineResource,
  pointerKey,
  type KeyedResource,
  type StateEvent,
} from '../../../src/index.js';

const Note = defineResource<{ text: string }>({ type: 'Notes.test.cosi.dev' });

const keyed = (id: string, text: string, labels: Record<string, string> = {}): KeyedResource => {
  const resource = Note.create(id, { text }, { labels });
  return { key: pointerKey(resource.metadata), resource };
};

describe('applying a set of manifest resources', () => {
  it('creates everything the first time', async () => {
    const state = createInMemoryState();
    const result = await applyResources(state, [keyed('a', '1'), keyed('b', '2')]);
    expect(result.created).toHaveLength(2);
    expect((await state.list(Note.kind())).map((r) => r.metadata.id)).toEqual(['a', 'b']);
  });

  it('writes only what changed against the previous set, and tears down what is gone', async () => {
    const state = createInMemoryState();
    const before = [
      keyed('same', 'x'),
      keyed('edited', 'old'),
      keyed('relabelled', 'y'),
      keyed('gone', 'z'),
    ];
    await applyResources(state, before);
    await state.addFinalizer(Note.pointer('gone'), 'someone');
    const events: StateEvent[] = [];
    await state.watchKind(Note.kind(), (e) => events.push(e));

    const after = [
      keyed('same', 'x'),
      keyed('edited', 'new'),
      keyed('relabelled', 'y', { a: 'b' }),
      keyed('new', 'n'),
    ];
    const result = await applyResources(state, after, before);
    await new Promise((resolve) => setImmediate(resolve));

    expect(result).toEqual({
      created: [pointerKey(Note.pointer('new'))],
      updated: [pointerKey(Note.pointer('edited')), pointerKey(Note.pointer('relabelled'))],
      tornDown: [pointerKey(Note.pointer('gone'))],
      unchanged: [pointerKey(Note.pointer('same'))],
    });
    expect(
      events.map((e) =>
        e.type === 'bootstrapped' || e.type === 'errored'
          ? e.type
          : `${e.type} ${e.resource.metadata.id}`,
      ),
    ).toEqual(['updated edited', 'updated relabelled', 'created new', 'updated gone']);
    const gone = await state.get(Note.pointer('gone'));
    expect(gone.metadata.phase).toBe('tearingDown');
    expect((await state.get(Note.pointer('same'))).metadata.version).toBe(1);
  });

  it('destroys a removed resource at once when nothing holds it', async () => {
    const state = createInMemoryState();
    const before = [keyed('free', 'x')];
    await applyResources(state, before);
    const result = await applyResources(state, [], before);
    expect(result.tornDown).toHaveLength(1);
    expect(await state.list(Note.kind())).toEqual([]);
  });
});
