/** `1 file`, `2 files`: a count and a word that takes a plain `s`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
