/**
 * `helm template`'s `# Source:` comments said beside the findings of the documents they head
 * (`rendered-origin.ts`).
 */
import { describe, expect, it } from 'vitest';
import { createFinding, type Finding } from '../../src/loaders/finding.js';
import { withRenderedOrigins } from '../../src/loaders/rendered-origin.js';

const at = (file: string, line: number): Finding =>
  createFinding({
    code: 'schema-violation',
    message: 'must be integer',
    file,
    line,
    col: 3,
    pointer: '/x',
  });

const STREAM = [
  '---', // 1
  '# Source: chart/templates/a.yaml', // 2
  'apiVersion: v1', // 3
  'kind: ConfigMap', // 4
  '---', // 5
  '# Source: chart/templates/b.yaml', // 6
  'apiVersion: v1', // 7
  '---', // 8
  'apiVersion: v1', // 9: a document with no comment
  'kind: Secret', // 10
  '',
].join('\n');

describe('withRenderedOrigins', () => {
  it('says the template of the document each finding is in, and nothing for one without', () => {
    const found = withRenderedOrigins(
      [at('<stdin>', 3), at('<stdin>', 4), at('<stdin>', 7), at('<stdin>', 9), at('<stdin>', 0)],
      [{ path: '<stdin>', text: STREAM }],
    );
    expect(found.map((f) => f.message)).toEqual([
      'must be integer (from chart/templates/a.yaml)',
      'must be integer (from chart/templates/a.yaml)',
      'must be integer (from chart/templates/b.yaml)',
      'must be integer',
      'must be integer',
    ]);
  });

  it('reads a long comment line in linear time, and a path with spaces after it', () => {
    // A lazy path before trailing spaces took quadratic time: 55000 spaces then a word, 5 s.
    const long = `# Source: a${' '.repeat(200_000)}b`;
    const text = ['# Source: chart/t.yaml \r', 'x: 1', long, 'y: 2', ''].join('\n');
    const started = performance.now();
    const found = withRenderedOrigins(
      [at('f.yaml', 2), at('f.yaml', 4)],
      [{ path: 'f.yaml', text }],
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(found[0]?.message).toBe('must be integer (from chart/t.yaml)');
    expect(found[1]?.message).toMatch(/^must be integer \(from a {100}/);
  });

  it('leaves the findings of a text without the comment, and of other files, as they are', () => {
    const plain = at('a.yaml', 3);
    const other = at('b.yaml', 3);
    const found = withRenderedOrigins(
      [plain, other],
      [
        { path: 'a.yaml', text: 'apiVersion: v1\nkind: ConfigMap\n# a comment\n' },
        { path: 'c.yaml', text: STREAM },
      ],
    );
    expect(found).toEqual([plain, other]);
  });

  it('bounds an origin the stream makes long', () => {
    const long = `# Source: ${'x'.repeat(10_000)}\napiVersion: v1\n`;
    const [found] = withRenderedOrigins([at('s', 2)], [{ path: 's', text: long }]);
    expect(found?.message.length).toBeLessThan(300);
  });
});
