import leven from 'leven';

/**
 * The known name closest to a misspelled one, when it is close enough to be the likely intent
 * (an edit distance of at most a third of its length, and at least one).
 *
 * @example
 * didYouMean('controller', ['definitions', 'controllers', 'setup']) // 'controllers'
 */
export function didYouMean(given: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const limit = Math.max(1, Math.floor(given.length / 3));
  for (const name of known) {
    // The distance is at least the difference in length: a 1 MB name is not compared in full.
    if (Math.abs(name.length - given.length) > limit) continue;
    const distance = leven(given.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return bestDistance <= limit ? best : undefined;
}
