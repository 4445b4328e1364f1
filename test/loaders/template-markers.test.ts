/**
 * Template expressions (`{{ ... }}`) said where they broke a document's YAML
 * (`template-markers.ts`), read in linear time whatever the line.
 */
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';

const codes = (text: string) => parseManifest(text, 'cm.yaml').findings.map((f) => f.code);

describe('template expressions in a broken document', () => {
  it('are looked for beside an unclosed quoted string of escaped quotes in linear time', () => {
    // Each `"` of a line of `\"`s was read to the line's end again: 80 KB took 6 s.
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: {{ x }}\n  b: "${'\\"'.repeat(100_000)}\n`;
    const started = performance.now();
    // The quote that does not close is what broke the document, not the expression above it.
    expect(codes(text)).toEqual(['yaml-syntax']);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('are not those inside a quoted string that closes', () => {
    expect(codes('a: "{{ x }}"\nb: [\n')).not.toContain('template-expression');
    expect(codes("a: 'it''s {{ x }}'\nb: [\n")).not.toContain('template-expression');
    expect(codes('a: "x" {{ y }}\n')).toContain('template-expression');
  });
});
