import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { loadManifests, loadParsedManifests } from '../../src/loaders/load-manifests.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const DEFINITION = `metadata:\n  type: rd\nspec:\n  type: Things.example.org\n`;

function things(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(`---\nmetadata:\n  type: Things.example.org\n  id: t${i}\nspec:\n  n: ${i}\n`);
  }
  return parts.join('');
}

/** A turn of the event loop: a WeakRef's target is kept alive until the job that made it ends. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the resources a load returns', () => {
  it('keep positions of their documents, not the parsed documents', async () => {
    const text = things(50);
    let parsed: ReturnType<typeof parseManifest>[] | undefined = [
      parseManifest(DEFINITION, 'd.yaml'),
      parseManifest(text, 't.yaml'),
    ];
    const documents = parsed.flatMap((p) => p.documents).map((d) => new WeakRef(d));
    const values = parsed.flatMap((p) => p.documents).map((d) => new WeakRef(d.value as object));
    const result = loadParsedManifests(parsed);
    expect(result.resources).toHaveLength(50);
    parsed = undefined;
    await nextTurn();
    gc();
    expect(documents.filter((d) => d.deref() !== undefined)).toEqual([]);
    expect(values.filter((v) => v.deref() !== undefined)).toEqual([]);
    // And they still place pointers: t7's spec.n is on line 6 of its document.
    expect(result.resources[7]?.locate?.('/spec/n')).toEqual({ line: 7 * 6 + 6, col: 6 });
  });

  it('told not to keep positions, hold neither the text of their file nor its line index', async () => {
    let parsed: ReturnType<typeof parseManifest>[] | undefined = [
      parseManifest(DEFINITION, 'd.yaml'),
      parseManifest(things(50), 't.yaml'),
    ];
    const sources = parsed.flatMap((p) => p.documents).map((d) => new WeakRef(d.source));
    const result = loadParsedManifests(parsed, { positions: false });
    expect(result.resources).toHaveLength(50);
    parsed = undefined;
    await nextTurn();
    gc();
    expect(sources.filter((s) => s.deref() !== undefined)).toEqual([]);
    // Any pointer is placed at its document's start: t7's document starts on line 6 * 7 + 2.
    expect(result.resources[7]?.locate?.('/spec/n')).toEqual({ line: 7 * 6 + 2, col: 1 });
    expect(result.resources[7]?.source).toMatchObject({ line: 7 * 6 + 2, col: 1 });
  });

  it('are plain data when copied or serialised: locate is a method', () => {
    const [resource] = loadManifests([
      { path: 'd.yaml', text: DEFINITION },
      { path: 't.yaml', text: things(1) },
    ]).resources;
    expect(Object.keys({ ...resource })).toEqual(['key', 'resource', 'definition', 'source']);
    expect(Object.keys(JSON.parse(JSON.stringify(resource)) as object)).toEqual([
      'key',
      'resource',
      'definition',
      'source',
    ]);
    expect(resource?.locate?.('/metadata/id')).toEqual({ line: 4, col: 7 });
  });

  it('share frozen empty labels, annotations, finalizers and owner references', () => {
    const { resources } = loadManifests([
      { path: 'd.yaml', text: DEFINITION },
      { path: 't.yaml', text: things(2) },
    ]);
    const [a, b] = resources.map((r) => r.resource.metadata);
    expect(a?.labels).toBe(b?.labels);
    expect(a?.annotations).toBe(b?.annotations);
    expect(a?.finalizers).toBe(b?.finalizers);
    expect(a?.ownerReferences).toBe(b?.ownerReferences);
    expect(Object.isFrozen(a?.labels)).toBe(true);
  });

  it('keep labels and annotations of their own when written', () => {
    const text = `metadata:\n  type: Things.example.org\n  id: a\n  labels: { env: prod }\nspec: {}\n`;
    const { resources } = loadManifests([
      { path: 'd.yaml', text: DEFINITION },
      { path: 't.yaml', text },
    ]);
    const metadata = resources[0]?.resource.metadata;
    expect(metadata?.labels).toEqual({ env: 'prod' });
    expect(Object.isFrozen(metadata?.labels)).toBe(false);
  });
});
