import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { decodeManifest, EncodingError } from '../../src/loaders/decode-manifest.js';
import type { Finding } from '../../src/loaders/finding.js';
import { loadManifests } from '../../src/loaders/load-manifests.js';

const DEFINITION = 'metadata:\n  type: rd\nspec:\n  type: Things.example.org\n';

/** Every finding about `text` lies inside it: a line it has, a column of that line (or just past). */
function expectInside(findings: readonly Finding[], file: string, text: string): void {
  // Lines as positions count them: by line feeds (a lone carriage return is refused).
  const lines = text.split('\n');
  for (const f of findings) {
    if (f.file !== file || f.line === 0) continue;
    expect(f.line).toBeGreaterThanOrEqual(1);
    expect(f.line).toBeLessThanOrEqual(lines.length);
    expect(f.col).toBeGreaterThanOrEqual(1);
    expect(f.col).toBeLessThanOrEqual((lines[f.line - 1] ?? '').length + 1);
  }
}

/** Bytes that are YAML-ish often enough to get past the parser. */
const yamlishBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'metadata:',
        '  type: Things.example.org\n',
        '  id: a\n',
        'spec:',
        '\n',
        '  ',
        '- ',
        ': ',
        '---\n',
        '&a ',
        '*a',
        '!!float ',
        '"',
        '{',
        '}',
        '[',
        ']',
        '<<: ',
        '%YAML 1.1\n',
        '9007199254740993',
        '1e400',
        '0777',
        '\t',
        '\r',
        '\ufeff',
        '\u0000',
        '\u001b[2J',
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => new TextEncoder().encode(parts.join('')));

const rawBytes = fc.uint8Array({ maxLength: 200 });

/** Plain data as a manifest's spec may hold it. */
/**
 * A key of the written data. Not `<<`: yaml's stringify writes that key plain, and a plain `<<` is
 * a merge key to kubectl (go-yaml, YAML 1.1) and to cosi (a quoted "<<" is a key of that name,
 * tested in parse-manifest.test.ts), so the data read back rightly differs from the data written.
 */
const specKey = fc.string({ maxLength: 6 }).filter((key) => key !== '<<');

const specValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.constantFrom('yes', 'no', 'on', '0777', '1e400', '~', 'null', '', ' ', '#', '- x', 'a: b'),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(specKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('the loader on hostile input (fuzz)', () => {
  it('never throws, and places every finding inside the file, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.oneof(yamlishBytes, rawBytes), (bytes) => {
        let text: string;
        try {
          text = decodeManifest(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(EncodingError);
          return;
        }
        const result = loadManifests([
          { path: 'd.yaml', text: DEFINITION },
          { path: 'm.yaml', text },
        ]);
        expectInside(result.findings, 'm.yaml', text);
      }),
      { numRuns: 300 },
    );
  });

  it('loads every accepted spec as exactly the data that was written', () => {
    fc.assert(
      fc.property(fc.dictionary(specKey, specValue, { maxKeys: 5 }), (spec) => {
        const text = stringify({ metadata: { type: 'Things.example.org', id: 'a' }, spec });
        const result = loadManifests([
          { path: 'd.yaml', text: DEFINITION },
          { path: 'm.yaml', text },
        ]);
        expectInside(result.findings, 'm.yaml', text);
        const accepted = result.resources[0];
        if (accepted === undefined) {
          // Refused: then for a reason, at a place.
          expect(result.findings.some((f) => f.severity === 'error')).toBe(true);
          return;
        }
        expect(accepted.resource.spec).toEqual(spec);
        expect(JSON.parse(JSON.stringify(accepted.resource.spec))).toEqual(spec);
      }),
      { numRuns: 200 },
    );
  });
});
