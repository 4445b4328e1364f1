import { describe, expect, it, vi } from 'vitest';
import { loadManifests, type ManifestFile } from '../../src/loaders/load-manifests.js';
import { loadParsedManifests } from '../../src/loaders/load-parsed-manifests.js';
import { ManifestCache, type CachedLoadResult } from '../../src/loaders/manifest-cache.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';
import type { LoadResult } from '../../src/loaders/load-options.js';

const DEFINITIONS = [
  'metadata: {type: rd, id: vms.example.org}',
  'spec:',
  '  type: VMs.example.org',
  '  schema: {type: object, required: [cpus], properties: {cpus: {type: integer, minimum: 1}}}',
  '',
].join('\n');

/** A long stream: VMs, ConfigMaps, comments, an empty document, invalid ones. */
function stream(count: number, edit: (i: number, doc: string) => string = (_, d) => d): string {
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    let doc =
      i % 3 === 0
        ? `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: default\ndata:\n  key: value-${i}\n`
        : `# vm ${i}\nmetadata:\n  type: vm\n  id: vm-${i}\nspec:\n  cpus: ${1 + (i % 4)}\n`;
    if (i === 17) doc = `metadata:\n  type: vm\n  id: vm-${i}\nspec:\n  cpus: 0\n`;
    if (i === 40) doc = '# only a comment\n';
    docs.push(edit(i, doc));
  }
  return `# a generated stream\n${docs.join('---\n')}---\n`;
}

function files(text: string): ManifestFile[] {
  return [
    { path: 'defs.yaml', text: DEFINITIONS },
    { path: 'many.yaml', text },
  ];
}

function countingCache() {
  const parse = vi.fn(parseManifest);
  return { cache: new ManifestCache(loadParsedManifests, { parse }), parse };
}

/** The load without the cache's own fields, and where each resource's fields are. */
function comparable(result: CachedLoadResult | LoadResult) {
  const { parsed: _p, resolved: _r, ...load } = result as CachedLoadResult;
  const places = load.resources.map((r) => [
    r.key,
    r.source,
    r.locate?.('/spec'),
    r.locate?.('/metadata', 'key'),
  ]);
  return { load, places, documents: load.documents };
}

/** The characters the parse function was given since its last reset. */
function parsedCharacters(parse: ReturnType<typeof countingCache>['parse']): number {
  return parse.mock.calls.reduce((sum, [text]) => sum + text.length, 0);
}

describe('ManifestCache and a long file edited', () => {
  it('parses and resolves again only the documents near a one-value edit, and equals a full load', () => {
    const { cache, parse } = countingCache();
    const before = stream(600);
    const first = cache.load(files(before));
    expect(comparable(first)).toEqual(comparable(loadManifests(files(before))));
    parse.mockClear();

    const after = stream(600, (i, doc) => (i === 301 ? doc.replace('cpus: 2', 'cpus: 3') : doc));
    const second = cache.load(files(after));
    expect(second.parsed).toEqual(['many.yaml']);
    // The segment of the edited document: a few of the 600 documents, not the file.
    expect(parsedCharacters(parse)).toBeGreaterThan(0);
    expect(parsedCharacters(parse)).toBeLessThan(after.length / 10);
    expect(comparable(second)).toEqual(comparable(loadManifests(files(after))));
    // The other documents were not resolved and validated again: the same resources.
    const edited = second.resources.findIndex((r) => r.key.endsWith('vm-301'));
    const kept = second.resources.filter((r, i) => r === first.resources[i]).length;
    expect(second.resources[edited]).not.toBe(first.resources[edited]);
    expect(kept).toBeGreaterThan(second.resources.length * 0.9);
    expect((second.resources[edited]?.resource.spec as { cpus: number }).cpus).toBe(3);
  });

  it('places the documents after an edit that adds lines and documents as a full load does', () => {
    const { cache, parse } = countingCache();
    cache.load(files(stream(300)));
    const after = stream(300, (i, doc) =>
      i === 100 ? `${doc}---\nmetadata:\n  type: vm\n  id: added\n\n\nspec:\n  cpus: 0\n` : doc,
    );
    parse.mockClear();
    const second = cache.load(files(after));
    expect(comparable(second)).toEqual(comparable(loadManifests(files(after))));
    expect(second.findings.filter((f) => f.severity === 'error').map((f) => f.line)).toEqual(
      loadManifests(files(after))
        .findings.filter((f) => f.severity === 'error')
        .map((f) => f.line),
    );
  });

  it('reports a YAML error in one segment, and a duplicate across segments, as a full load does', () => {
    const { cache } = countingCache();
    cache.load(files(stream(300)));
    for (const after of [
      stream(300, (i, doc) => (i === 200 ? `${doc}  bad: [\n` : doc)),
      stream(300, (i, doc) => (i === 250 ? doc.replace('vm-250', 'vm-10') : doc)),
      stream(300),
    ]) {
      const result = cache.load(files(after));
      expect(comparable(result)).toEqual(comparable(loadManifests(files(after))));
    }
  });

  it('reads an edit of a file first loaded whole after a YAML error as a full load does', () => {
    const { cache, parse } = countingCache();
    cache.load(files(stream(300, (i, doc) => (i === 5 ? `${doc}  bad: [\n` : doc))));
    const after = stream(300, (i, doc) => (i === 250 ? doc.replace('value-250', 'v') : doc));
    parse.mockClear();
    const result = cache.load(files(after));
    expect(comparable(result)).toEqual(comparable(loadManifests(files(after))));
    expect(parsedCharacters(parse)).toBe(after.length);
  });

  it('parses only the edited segment through loadChanged as well', () => {
    const { cache, parse } = countingCache();
    cache.load(files(stream(600)));
    const after = stream(600, (i, doc) => (i === 450 ? doc.replace('value-450', 'v') : doc));
    parse.mockClear();
    const result = cache.loadChanged(files(after), ['many.yaml']);
    expect(parsedCharacters(parse)).toBeLessThan(after.length / 10);
    expect(result.changes?.get('many.yaml')?.length).toBe(598);
    expect(comparable(result)).toEqual(comparable(loadManifests(files(after))));
  });
});
