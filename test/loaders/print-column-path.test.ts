import { describe, expect, it } from 'vitest';
import { printColumnPathError } from '../../src/loaders/print-column-path.js';

describe('printColumnPathError', () => {
  it('accepts the templates kubectl and COSI use', () => {
    for (const ok of [
      '{.cpus}',
      '{.aliases[:]}',
      'name={.metadata.id}',
      "{.a['b c']}",
      '{.a[0].b}',
      '{.}',
    ]) {
      expect(printColumnPathError(ok)).toBeUndefined();
    }
  });

  it('refuses unclosed braces and brackets, stray closers, filters and plain text', () => {
    for (const bad of [
      '{.a',
      '{.a[}',
      '.a}',
      '{.a]}',
      '{.a[]}',
      '{.a[?(@.x)]}',
      "{.a['b}",
      'cpus',
      '{.a.}',
    ]) {
      expect(printColumnPathError(bad)).toBeTypeOf('string');
    }
  });
});
