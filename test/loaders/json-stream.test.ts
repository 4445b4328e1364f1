/**
 * JSON objects one after another (`kubectl get -o json | jq '.items[]'`, `jq -c`), which kubectl
 * reads as a stream of objects: read as one document each, positions as written.
 */
import { describe, expect, it } from 'vitest';
import { jsonStreamAsYaml } from '../../src/loaders/json-stream.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';
import { revivedParse, toTransfer } from '../../src/loaders/parse-transfer.js';

const cm = (name: string, data: string) =>
  `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "${name}"}, "data": ${data}}`;

describe('a stream of JSON objects', () => {
  it('is read as one document an object, as jq -c prints them, findings at their place', () => {
    const text = `${cm('a', '{"x": "1"}')}\n${cm('b', '{"x": "}{"}')}\n${cm('c', '{"x": 3}')}\n`;
    const parsed = parseManifest(text, 'items.json');
    expect(parsed.findings).toEqual([]);
    expect(
      parsed.documents.map((d) => (d.value as { metadata: { name: string } }).metadata.name),
    ).toEqual(['a', 'b', 'c']);
    // The third object's `3`, on line 3, at the column it is written at.
    const third = parsed.documents[2];
    expect(third?.locate('/data/x')).toEqual({
      line: 3,
      col: text.split('\n')[2]!.indexOf('3}}') + 1,
    });
    expect(third?.position).toEqual({ line: 3, col: 1 });
  });

  it("is read as jq '.items[]' prints it, each object over several lines", () => {
    const pretty = (name: string) =>
      `{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {\n    "name": "${name}"\n  }\n}\n`;
    const parsed = parseManifest(pretty('a') + pretty('b'), '-');
    expect(parsed.findings).toEqual([]);
    expect(parsed.documents.map((d) => d.position)).toEqual([
      { line: 1, col: 1 },
      { line: 8, col: 1 },
    ]);
  });

  it('is read with objects back to back on one line, as kubectl reads them, findings at their place', () => {
    // `{...}{...}` and `{...} {...}`: kubectl's JSON decoder needs nothing between two values.
    const line = `${cm('a', '{"x": "1"}')}${cm('b', '{"x": 2}')}  ${cm('c', '{"x": "}{"}')}`;
    const text = `${line}\n${cm('d', '{"x": 4}')}\n`;
    const parsed = parseManifest(text, 'items.json');
    expect(parsed.findings).toEqual([]);
    expect(
      parsed.documents.map((d) => (d.value as { metadata: { name: string } }).metadata.name),
    ).toEqual(['a', 'b', 'c', 'd']);
    const b = line.indexOf('{"apiVersion"', 1);
    const c = line.lastIndexOf('{"apiVersion"');
    expect(parsed.documents.map((d) => d.position)).toEqual([
      { line: 1, col: 1 },
      { line: 1, col: b + 1 },
      { line: 1, col: c + 1 },
      { line: 2, col: 1 },
    ]);
    // The second object's `2`, and the fourth's `4`, where they are written.
    expect(parsed.documents[1]?.locate('/data/x')).toEqual({
      line: 1,
      col: line.indexOf('2}}') + 1,
    });
    expect(parsed.documents[3]?.locate('/data/x')).toEqual({
      line: 2,
      col: text.split('\n')[1]!.indexOf('4}}') + 1,
    });
  });

  it('places a later object of a line at its column, also parsed in a worker and sent back', () => {
    const line = `${cm('a', '{}')}${cm('b', '{"x": 2}')}`;
    const parsed = parseManifest(`${line}\n`, 'items.json');
    const revived = revivedParse(structuredClone(toTransfer(parsed, `${line}\n`)));
    for (const { documents } of [parsed, revived]) {
      expect(documents).toHaveLength(2);
      expect(documents[1]?.locate('/metadata/name')).toEqual({
        line: 1,
        col: line.indexOf('"b"') + 1,
      });
    }
  });

  it('leaves alone one object, YAML, an array, and an unclosed object', () => {
    for (const text of [
      cm('a', '{}'),
      'apiVersion: v1\nkind: ConfigMap\n',
      `[${cm('a', '{}')}, ${cm('b', '{}')}]`,
      `${cm('a', '{}')}\n{"kind": `,
      `${cm('a', '{}')}\nkind: ConfigMap\n`,
    ]) {
      expect(jsonStreamAsYaml(text), text).toBeUndefined();
    }
  });
});
