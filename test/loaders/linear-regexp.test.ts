import { describe, expect, it } from 'vitest';
import { compileLinearRegExp, linearRegExpError } from '../../src/loaders/linear-regexp.js';

describe('patterns from manifests', () => {
  it('match as RegExp#test does, each compile of one pattern on its own input', () => {
    const hostname = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
    const first = compileLinearRegExp(hostname);
    const second = compileLinearRegExp(hostname);
    expect([first.test('example.org'), second.test('Example.org'), first.test('a-')]).toEqual([
      true,
      false,
      false,
    ]);
    expect(second.toString()).toBe(`/${hostname}/`);
  });

  it('run in linear time where a backtracking engine would not end', () => {
    const input = `${'a'.repeat(5_000)}!`;
    expect(compileLinearRegExp('^(a+)+$').test(input)).toBe(false);
  });

  it('refuse what RE2 cannot run linearly, every time they are asked for', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => compileLinearRegExp('(a)\\1')).toThrow();
      expect(linearRegExpError('(?=a)b')).toMatch(/invalid|lookahead|Perl/i);
    }
    expect(linearRegExpError('^a+$')).toBeUndefined();
  });
});
