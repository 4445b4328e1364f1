/**
 * Orders two strings by UTF-16 code units, as `Array.prototype.sort` does without a comparator:
 * independent of the locale, so every sorted output is the same on every machine.
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
