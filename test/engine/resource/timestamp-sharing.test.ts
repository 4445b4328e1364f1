import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Timestamps are above 2^31, so V8 boxes them. metadata.ts gives the timestamp fields the
// representation in which one box is shared instead of copied into every object (16 bytes each);
// a number read from a field with the other ("double") representation is a fresh box every time.
// V8 shows it to `%IsSameHeapObject`, with --allow-natives-syntax.
//
// It runs the built library (dist/, as the CLI tests do) in a process of its own: the test
// runner's module transform loads the source differently, and there the representation did not
// carry over to the stored metadata.

const dist = fileURLToPath(new URL('../../../dist/index.js', import.meta.url));

const script = `
const { createInMemoryState, defineResource } = await import(${JSON.stringify(dist)});
const same = new Function('a', 'b', 'return %IsSameHeapObject(a, b)');
const Note = defineResource({ type: 'Notes.test.cosi.dev' });
let time = Date.UTC(2026, 10, 30) + 0.5;
const state = createInMemoryState({ now: () => (time += 1000) });
const created = await state.create(Note.create('a', { text: 'x' }));
const modified = await state.modifyWithResult(Note.create('b'), (d) => { d.spec.text = 'x'; });
const updated = await state.modifyWithResult(Note.create('a'), (d) => { d.spec.text = 'y'; });
await state.addFinalizer(Note.pointer('a'), 'f');
const finalized = await state.get(Note.pointer('a'));
const replaced = await state.update(finalized);
console.log(JSON.stringify({
  create: same(created.metadata.created, created.metadata.updated),
  modifyCreate: same(modified.metadata.created, modified.metadata.updated),
  updateKeepsCreated: same(updated.metadata.created, created.metadata.created),
  updateIsNewer: updated.metadata.updated > created.metadata.updated,
  finalizerKeepsCreated: same(finalized.metadata.created, created.metadata.created),
  updateCallKeepsCreated: same(replaced.metadata.created, created.metadata.created),
}));
`;

describe('the timestamps of stored resources', () => {
  it('are boxes shared between created and updated and across versions', () => {
    const out = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({
      create: true,
      modifyCreate: true,
      updateKeepsCreated: true,
      updateIsNewer: true,
      finalizerKeepsCreated: true,
      updateCallKeepsCreated: true,
    });
  });
});
