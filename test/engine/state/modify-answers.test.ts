import { describe, expect, it } from 'vitest';
import { ConflictError, createInMemoryState, defineResource } from '../../../src/index.js';

// The in-memory state's `modify` is not an async function (a synchronous write answers one
// settled promise rather than a new one): it must still behave as one, answering a promise and
// never throwing, whatever goes wrong.

const Note = defineResource<{ text: string }>({ type: 'Notes.test.cosi.dev' });

describe("the in-memory state's modify", () => {
  it('rejects, never throws, when the updater throws, with what it threw', async () => {
    const state = createInMemoryState();
    let answer: Promise<void> | undefined;
    expect(() => {
      answer = state.modify(Note.create('a'), () => {
        // Not an Error: an async function would reject with it as it is.
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw 'no';
      });
    }).not.toThrow();
    await expect(answer).rejects.toBe('no');
    expect(await state.list(Note.kind())).toEqual([]);
  });

  it('rejects, never throws, when the write is refused', async () => {
    const state = createInMemoryState();
    await state.create(Note.create('a', { text: 'theirs' }), { owner: 'Someone' });
    let answer: Promise<void> | undefined;
    expect(() => {
      answer = state.modify(Note.create('a'), (draft) => {
        draft.spec.text = 'mine';
      });
    }).not.toThrow();
    await expect(answer).rejects.toBeInstanceOf(ConflictError);
    expect((await state.get<{ text: string }>(Note.pointer('a'))).spec.text).toBe('theirs');
  });

  it('resolves to nothing once written, with a synchronous or an asynchronous updater', async () => {
    const state = createInMemoryState();
    await expect(
      state.modify(Note.create('a'), (draft) => {
        draft.spec.text = 'one';
      }),
    ).resolves.toBeUndefined();
    await expect(
      state.modify(Note.create('a'), async (draft) => {
        await Promise.resolve();
        draft.spec.text = 'two';
      }),
    ).resolves.toBeUndefined();
    expect((await state.get<{ text: string }>(Note.pointer('a'))).spec.text).toBe('two');
  });
});
