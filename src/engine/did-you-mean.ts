import leven from 'leven';

/**
 * The known name closest to a misspelled one, when it is close enough to be the likely intent
 * (an edit distance of at most a third of its length, and at least one). Of names equally close,
 * the one that starts as the given one does for longest: `ap` is `app` left unfinished more
 * likely than `ac` mistyped.
 *
 * @example
 * didYouMean('controller', ['definitions', 'controllers', 'setup']) // 'controllers'
 * didYouMean('ap', ['ac', 'app']) // 'app'
 */
export function didYouMean(given: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let bestPrefix = 0;
  const lower = given.toLowerCase();
  const limit = Math.max(1, Math.floor(given.length / 3));
  for (const name of known) {
    // The distance is at least the difference in length: a 1 MB name is not compared in full.
    if (Math.abs(name.length - given.length) > limit) continue;
    const distance = leven(lower, name.toLowerCase());
    if (distance > bestDistance) continue;
    const prefix = commonPrefixLength(lower, name.toLowerCase());
    if (distance < bestDistance || prefix > bestPrefix) {
      [best, bestDistance, bestPrefix] = [name, distance, prefix];
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** How many characters `a` and `b` share at their start. */
function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
