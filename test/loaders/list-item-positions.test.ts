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

const { loadManifests } = await import('../../src/loaders/load-manifests.js');
const { parseManifest } = await import('../../src/loaders/parse/parse-manifest.js');
const { revivedParse, toTransfer } = await import('../../src/loaders/parse-transfer.js');

const item = (i: number) =>
  `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c${i}", "namespace": "n"}, "data": {"k": ${i === 2 ? 5 : '"v"'}}}`;
/** `kubectl get -o json` of three ConfigMaps, the last one with a number for a string. */
const LIST = `{"apiVersion": "v1", "kind": "List", "items": [\n  ${[0, 1, 2].map(item).join(',\n  ')}\n]}\n`;

describe('the items of a kind: List', () => {
  it('are placed from the first parse: a list without a finding is parsed once', () => {
    const clean = LIST.replace('"k": 5', '"k": "5"');
    parses.count = 0;
    const { documents, findings } = loadManifests([{ path: 'all.json', text: clean }]);
    expect(findings).toEqual([]);
    expect(documents.map((d) => [d.name, d.line, d.col])).toEqual([
      ['c0', 2, 3],
      ['c1', 3, 3],
      ['c2', 4, 3],
    ]);
    // Was 2: the whole list parsed again, and its syntax tree kept, to place the items.
    expect(parses.count).toBe(1);
  });

  it('keep their places, and those of their kind and name, across threads', () => {
    const parsed = parseManifest(LIST, 'all.json');
    const revived = revivedParse(structuredClone(toTransfer(parsed, LIST)));
    const at = (pointer: string) => [parsed, revived].map((p) => p.documents[0]?.locate(pointer));
    for (const pointer of [
      '/items/1',
      '/items/1/kind',
      '/items/2/metadata/name',
      '/items/0/data/k',
    ]) {
      const [here, there] = at(pointer);
      expect(there).toEqual(here);
    }
    expect(at('/items/2/metadata/name')[1]).toEqual({ line: 4, col: 66 });
  });

  it('still place a finding inside an item at its line and column', () => {
    parses.count = 0;
    const { findings } = loadManifests([{ path: 'all.json', text: LIST }]);
    expect(findings.map((f) => [f.code, f.line, f.col, f.pointer])).toEqual([
      ['schema-violation', 4, 105, '/items/2/data/k'],
    ]);
  });
});
