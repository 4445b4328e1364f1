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

  it('find a long segment holding ? in a long text in a time near linear in the text (review gate2 3)', () => {
    // Trying the segment at each place took text x segment: 5 s for these.
    const started = performance.now();
    expect(wildcard(`*?${'a'.repeat(30_000)}b*`).test('a'.repeat(60_000))).toBe(false);
    expect(wildcard(`*?${'a'.repeat(30_000)}?*`).test('a'.repeat(60_000))).toBe(true);
    expect(wildcard('*a?a?a?b*').test('a'.repeat(1_000_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('match as a plain backtracking matcher does, segments of one word and of many', () => {
    let seed = 7;
    const random = (below: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    const text = (most: number, letters: string): string =>
      Array.from({ length: random(most + 1) }, () => letters[random(letters.length)]).join('');
    for (let round = 0; round < 3000; round++) {
      const long = round % 10 === 0;
      const pattern = long
        ? `${text(3, 'ab?')}*${text(90, 'aab??')}*${text(70, 'ab?')}*${text(3, 'ab')}`
        : text(10, 'ab?*');
      const value = text(long ? 300 : 12, 'abc');
      expect(wildcard(pattern).test(value), `${pattern} against ${value}`).toBe(
        backtracking(pattern, value),
      );
    }
  });
});

/** Whether `pattern` matches all of `text`, by trying every split at each star: the oracle. */
function backtracking(pattern: string, text: string): boolean {
  const memo = new Map<string, boolean>();
  const match = (p: number, t: number): boolean => {
    const key = `${p},${t}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (p === pattern.length) result = t === text.length;
    else if (pattern[p] === '*') result = match(p + 1, t) || (t < text.length && match(p, t + 1));
    else
      result =
        t < text.length && (pattern[p] === '?' || pattern[p] === text[t]) && match(p + 1, t + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}
