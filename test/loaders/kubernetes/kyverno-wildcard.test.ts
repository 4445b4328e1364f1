import { describe, expect, it } from 'vitest';
import { wildcard } from '../../../src/loaders/kubernetes/kyverno-wildcard.js';

describe("Kyverno's wildcards", () => {
  it('match a whole text: * any run, ? any one character, the rest as written', () => {
    expect(wildcard('prod-*').test('prod-eu')).toBe(true);
    expect(wildcard('prod-*').test('prod-')).toBe(true);
    expect(wildcard('prod-*').test('dev-prod-eu')).toBe(false);
    expect(wildcard('prod-e?').test('prod-eu')).toBe(true);
    expect(wildcard('prod-e?').test('prod-e')).toBe(false);
    expect(wildcard('*').test('')).toBe(true);
    expect(wildcard('').test('')).toBe(true);
    expect(wildcard('').test('a')).toBe(false);
    expect(wildcard('a*b*c').test('abxbc')).toBe(true);
    expect(wildcard('a*b?c').test('abxbc')).toBe(false);
    expect(wildcard('*ab*ab*').test('xabab')).toBe(true);
    expect(wildcard('*ab*ab*').test('xaba')).toBe(false);
    expect(wildcard('a.b').test('axb')).toBe(false);
    expect(wildcard('*?b').test('b')).toBe(false);
  });

  it('match many stars against a long name in time linear in its length', () => {
    // Both come from untrusted policies: as the regular expression ^.*a.*a.*a.*a.*b$, a
    // pattern of 4 stars took seconds against 250 characters, and each star more multiplies
    // that; each segment is now looked for once.
    const started = performance.now();
    expect(wildcard(`${'*a'.repeat(4)}b`).test('a'.repeat(250))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
    expect(wildcard(`${'*a'.repeat(1000)}*`).test('a'.repeat(100_000))).toBe(true);
    expect(wildcard(`*${'a'.repeat(1000)}b*`).test('a'.repeat(100_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
