import { setFlagsFromString } from 'node:v8';
import { expect, it } from 'vitest';
import { createInMemoryState } from '../../../src/engine/state/in-memory-state.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's own check, only with the flag above
const haveSameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
  a: object,
  b: object,
) => boolean;

const DEFINITION = `metadata:\n  type: rd\nspec:\n  type: Boxes.example.org\n`;

it('stored resources with the same label keys share one hidden class for their labels', async () => {
  // A spread copy frozen took a hidden class of its own per object in V8: 50,000 labelled
  // resources held 50,000 of them (about 200 bytes each).
  const text = Array.from(
    { length: 200 },
    (_, i) =>
      `---\nmetadata:\n  type: Boxes.example.org\n  id: b${i}\n  labels:\n    size: s${i % 3}\nspec: {}\n`,
  ).join('');
  const { resources } = loadManifests([
    { path: 'd.yaml', text: DEFINITION },
    { path: 'b.yaml', text },
  ]);
  const state = createInMemoryState();
  const stored = [];
  for (const r of resources) stored.push(await state.create(r.resource));
  const labels = stored.map((r) => r.metadata.labels);
  const shapes = labels.filter((l, i) => i > 0 && !haveSameShape(l, labels[i - 1] as object));
  expect(shapes).toHaveLength(0);
});
