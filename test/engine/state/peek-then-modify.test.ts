import { describe, expect, it } from 'vitest';
import { createInMemoryState, defineResource } from '../../../src/index.js';

// The in-memory state remembers its last `peekVersion` so that the modify the controller facade
// makes right after it does not look the resource up again. These are the ways that memory could
// go stale: each must still give what a fresh lookup gives.

const Note = defineResource<{ text: string }>({ type: 'Notes.test.cosi.dev' });

describe('a modify after a peek of the same resource', () => {
  it('updates, not overwrites, what another writer created after the peek', async () => {
    const state = createInMemoryState();
    expect(state.peekVersion(Note.pointer('a'))).toBe(0);
    await state.create(Note.create('a', { text: 'theirs' }));
    const seen: string[] = [];
    const stored = await state.modifyWithResult(Note.create('a'), (draft) => {
      seen.push(draft.spec.text);
      draft.spec.text += ' and mine';
    });
    expect(seen).toEqual(['theirs']);
    expect(stored.metadata.version).toBe(2);
    expect(stored.spec.text).toBe('theirs and mine');
  });

  it('creates again what was destroyed after the peek', async () => {
    const state = createInMemoryState();
    await state.create(Note.create('a', { text: 'old' }));
    expect(state.peekVersion(Note.pointer('a'))).toBe(1);
    await state.destroy(Note.pointer('a'));
    const stored = await state.modifyWithResult(Note.create('a'), (draft) => {
      draft.spec.text = 'new';
    });
    expect(stored.metadata.version).toBe(1);
    expect(stored.spec.text).toBe('new');
  });

  it('sees an update made after the peek', async () => {
    const state = createInMemoryState();
    await state.create(Note.create('a', { text: 'one' }));
    expect(state.peekVersion(Note.pointer('a'))).toBe(1);
    await state.modify(Note.create('b'), () => undefined);
    await state.updateWithConflicts<{ text: string }>(Note.pointer('a'), (draft) => {
      draft.spec.text = 'two';
    });
    const stored = await state.modifyWithResult(Note.create('a'), (draft) => {
      draft.spec.text += '!';
    });
    expect(stored.spec.text).toBe('two!');
    expect(stored.metadata.version).toBe(3);
  });

  it('does not take the peek of one resource for another with the same id', async () => {
    const state = createInMemoryState();
    const Other = defineResource<{ text: string }>({ type: 'Others.test.cosi.dev' });
    await state.create(Other.create('a', { text: 'other' }));
    expect(state.peekVersion(Other.pointer('a'))).toBe(1);
    const stored = await state.modifyWithResult(Note.create('a'), (draft) => {
      draft.spec.text = 'note';
    });
    expect(stored.metadata.version).toBe(1);
    expect((await state.get(Other.pointer('a'))).spec).toEqual({ text: 'other' });
  });
});
