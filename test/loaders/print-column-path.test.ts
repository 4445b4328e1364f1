import { describe, expect, it } from 'vitest';
import { printColumnPathError } from '../../src/loaders/print-column-path.js';

describe('printColumnPathError', () => {
  it('accepts the templates kubectl and COSI use', () => {
    for (const ok of [
      '{.cpus}',
      '{.aliases[:]}',
      'name={.metadata.id}',
      '{.a[0].b}',
      '{.}',
      '{.status.conditions[?(@.type=="Ready")].status}',
      '{.items[?(@.spec.cpus>2)].metadata.id}',
    ]) {
      expect(printColumnPathError(ok)).toBeUndefined();
    }
  });

  it('refuses unclosed braces and brackets, stray closers, what kubectl cannot parse and plain text', () => {
    for (const bad of [
      '{.a',
      '{.a[}',
      '.a}',
      '{.a]}',
      '{.a[]}',
      '{.a[?(@.x ~ 1)]}',
      "{.a['b c']}",
      "{.a['b}",
      'cpus',
      '{.a.}',
    ]) {
      expect(printColumnPathError(bad)).toBeTypeOf('string');
    }
  });
});
