import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';
import { withAppliedBy } from '../../src/loaders/test-expressions.js';

const APPLIED_BY = { test: 'e2e/chainsaw-test.yaml', namespace: 'chainsaw-a1', templates: true };

/** The data of a ConfigMap whose values are `values`, as a chainsaw test applies it. */
function applied(values: Record<string, string>): unknown {
  const text = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {name: cm}',
    'data:',
    ...Object.entries(values).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`),
  ].join('\n');
  const manifest = withAppliedBy(parseManifest(text, 'cm.yaml'), APPLIED_BY);
  return (manifest.documents[0]?.value as { data: unknown }).data;
}

describe('the expressions of a file a chainsaw test applies', () => {
  it('binds $namespace, alone or joined with literals, inside spaces as chainsaw reads them', () => {
    expect(
      applied({
        a: '($namespace)',
        b: '(  $namespace\t)',
        c: "(join('-', [$namespace, 'reader']))",
        d: '(other)',
        e: '$namespace',
      }),
    ).toEqual({
      a: 'chainsaw-a1',
      b: 'chainsaw-a1',
      c: 'chainsaw-a1-reader',
      d: '(other)',
      e: '$namespace',
    });
  });

  it('reads a value of a long run of spaces in linear time', () => {
    // A lazy body between two `\s*` backtracks cubically: 3000 spaces took 24 s.
    const open = `(${' '.repeat(3000)}`;
    const started = performance.now();
    expect(applied({ a: open, b: `${open}x`, c: `${open}$namespace${' '.repeat(3000)})` })).toEqual(
      {
        a: open,
        b: `${open}x`,
        c: 'chainsaw-a1',
      },
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
