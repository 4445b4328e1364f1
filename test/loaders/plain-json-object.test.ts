import { describe, expect, it, vi } from 'vitest';
import type * as Yaml from 'yaml';

/** How many times yaml's parser was started: once per parse of a text. */
const parses = vi.hoisted(() => ({ count: 0 }));

vi.mock('yaml', async (importOriginal) => {
  const yaml = await importOriginal<typeof Yaml>();
  class CountedParser extends yaml.Parser {
    constructor(...args: ConstructorParameters<typeof yaml.Parser>) {
      super(...args);
      parses.count++;
    }
  }
  return { ...yaml, Parser: CountedParser };
});

const { parseManifest } = await import('../../src/loaders/parse/parse-manifest.js');
const { loadManifests } = await import('../../src/loaders/load-manifests.js');

/** `kubectl get -o json` of `count` ConfigMaps (over 64 KB: read as JSON when it can be). */
function list(count: number, extra = '', numbers = true): string {
  const items = Array.from(
    { length: count },
    (_, i) =>
      `    {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c${i}", "namespace": "n", "labels": {"i": "${i}"}}, "data": {"k": "v\\u003c\\n\\"${i}\\"\\/é😀"}${numbers ? ', "n": [1, 0, -2, 0.5, 1.25, true, false, null, {}, []]' : ''}}`,
  );
  return `{\n  "apiVersion": "v1",\n  "kind": "List",${extra}\n  "items": [\n${items.join(',\n')}\n  ],\n  "metadata": {"name": "all", "resourceVersion": ""}\n}\n`;
}

/** The text read by yaml's reader: a comment after the object is YAML, not JSON. */
const byYaml = (text: string) => `${text}# read by yaml\n`;

const POINTERS = [
  '',
  '/kind',
  '/metadata/name',
  '/items/0',
  '/items/7/kind',
  '/items/7/metadata/name',
  '/items/7/data/k',
  '/items/999/n/3',
  '/items/5000',
];

/** What a reader of `text` can see of its parse: values, findings, places. */
function seen(text: string) {
  const { documents, findings } = parseManifest(text, 'all.json');
  return {
    values: documents.map((d) => d.value),
    json: JSON.stringify(documents.map((d) => d.value)),
    prototypes: documents.map(
      (d) => d.value === undefined || Object.getPrototypeOf(d.value) === Object.prototype,
    ),
    documents: documents.map((d) => [d.index, d.position, d.hasErrors]),
    places: documents.map((d) => POINTERS.map((p) => d.locate(p))),
    keys: documents.map((d) => d.locate('/items/3/metadata', 'key')),
    findings,
  };
}

describe('a large file that is one JSON object', () => {
  it('is read with JSON.parse: the same values and places as yaml reads, no syntax tree', () => {
    const text = list(1_000);
    expect(text.length).toBeGreaterThan(64 * 1024);
    parses.count = 0;
    const fast = parseManifest(text, 'all.json');
    expect(parses.count).toBe(0);
    expect(fast.documents[0]?.locate('/items/999/metadata/name')).toEqual({ line: 1004, col: 68 });
    // Places only a finding needs parse the text then, as the yaml reader's documents do.
    expect(seen(text)).toEqual(seen(byYaml(text)));
  });

  it('is loaded with each item placed and a finding inside one at its line and column', () => {
    const text = list(1_000, '', false).replace('"k": "v\\u003c\\n\\"3\\"', '"k": 3, "x": "v');
    const load = (t: string) => loadManifests([{ path: 'all.json', text: t }]);
    const fast = load(text);
    expect(fast.findings.map((f) => [f.code, f.line, f.col, f.pointer])).toEqual([
      ['schema-violation', 8, 129, '/items/3/data/k'],
    ]);
    expect(fast.documents.slice(0, 2).map((d) => [d.name, d.line, d.col])).toEqual([
      ['c0', 5, 5],
      ['c1', 6, 5],
    ]);
    const slow = load(byYaml(text));
    expect(fast.findings).toEqual(slow.findings);
    expect(fast.documents).toEqual(slow.documents);
  });

  it.each([
    ['a key twice', ',\n  "kind": "List"'],
    ['an integer past 2^53', ',\n  "big": 9007199254740993'],
    ['a number too large', ',\n  "huge": 1e400'],
    ['-0', ',\n  "zero": -0'],
    ['an escaped key', ',\n  "k\\u0069nd2": 1'],
    ['half a surrogate pair', ',\n  "half": "\\ud800"'],
    ['a __proto__ key', ',\n  "__proto__": {"polluted": true}'],
    ['nesting past 64 levels', `,\n  "deep": ${'['.repeat(70)}${']'.repeat(70)}`],
    ['nesting past the reader limit', `,\n  "deep": ${'{"a":'.repeat(300)}1${'}'.repeat(300)}`],
    ['a control character', ',\n  "tab": "a\tb"'],
  ])('with %s is read as yaml reads it, findings and all', (_, extra) => {
    const text = list(1_000, extra);
    expect(seen(text)).toEqual(seen(byYaml(text)));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('of two or more objects (a JSON stream) is read as yaml reads it', () => {
    parses.count = 0;
    const { documents } = parseManifest(`${list(500)}${list(500)}`, 'all.json');
    expect(documents.map((d) => d.position)).toEqual([
      { line: 1, col: 1 },
      { line: 508, col: 1 },
    ]);
    expect(parses.count).toBe(1);
  });
});
