import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';
import { streamSegments } from '../../src/loaders/stream-segments.js';

const docs = (count: number, from = 0): string[] =>
  Array.from({ length: count }, (_, i) => `metadata:\n  type: vm\n  id: vm-${from + i}\n`);

describe('streamSegments', () => {
  it('cuts a long stream at separators into segments that join to it, each placed and indexed as the whole parse', () => {
    const text = `# head\n---\n${docs(200).join('---\n')}---\n---\n# empty\n---\nlast: 1\n`;
    const segments = streamSegments(text);
    expect(segments).toBeDefined();
    expect(segments?.map((s) => s.text).join('')).toBe(text);
    expect(segments?.length).toBeGreaterThan(3);
    const whole = parseManifest(text, 'f.yaml');
    for (const segment of segments ?? []) {
      const own = parseManifest(segment.text, 'f.yaml', { origin: { line: segment.line, col: 1 } });
      const expected = whole.documents.filter(
        (d) => d.index >= segment.firstIndex && d.index < segment.firstIndex + segment.documents,
      );
      expect(own.documents.map((d) => [d.index + segment.firstIndex, d.position, d.value])).toEqual(
        expected.map((d) => [d.index, d.position, d.value]),
      );
    }
    const last = segments?.at(-1);
    expect((last?.firstIndex ?? 0) + (last?.documents ?? 0)).toBe(
      (whole.documents.at(-1)?.index ?? 0) + 1,
    );
  });

  it('moves only the cuts near a document added in the middle', () => {
    const before = streamSegments(docs(400).join('---\n')) ?? [];
    const after =
      streamSegments([...docs(200), 'added: 1\n', ...docs(200, 200)].join('---\n')) ?? [];
    const texts = new Set(before.map((s) => s.text));
    const changed = after.filter((s) => !texts.has(s.text));
    expect(changed.length).toBeLessThanOrEqual(2);
  });

  it('leaves whole a short stream, and one a cut could read otherwise', () => {
    const long = docs(100).join('---\n');
    expect(streamSegments(docs(10).join('---\n'))).toBeUndefined();
    expect(streamSegments(`%YAML 1.2\n---\n${long}`)).toBeUndefined();
    expect(streamSegments(`${long}...\n`)).toBeUndefined();
    expect(streamSegments(`a: &x 1\n---\n${long}`)).toBeUndefined();
    expect(streamSegments(long.replace(/\n/g, '\r\n'))).toBeUndefined();
    expect(streamSegments(`--- !!map\n${long}`)).toBeUndefined();
    expect(streamSegments(`{"a": 1}\n${long}`)).toBeUndefined();
    expect(streamSegments(long)).toBeDefined();
  });
});
