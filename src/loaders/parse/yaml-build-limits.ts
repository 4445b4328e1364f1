/**
 * The bounds on building a document's data: how deep it may nest, and how much alias expansion
 * may make, as kubectl's go-yaml bounds it (nodes) and as cosi adds (characters).
 */

export const DEFAULT_MAX_DEPTH = 256;

/** How many nodes expansions may make before their share is looked at (go-yaml's 100). */
export const ALIASED_NODES_ALWAYS_ALLOWED = 100;
/** How many nodes a document may have before its aliasing is bounded (go-yaml's 1,000). */
export const NODES_BEFORE_ALIASING_IS_BOUNDED = 1000;
/** Between these counts of nodes, the share allowed falls from 99% to 10% (go-yaml's range). */
const ALIAS_SHARE_RANGE_LOW = 400_000;
const ALIAS_SHARE_RANGE_HIGH = 4_000_000;

/**
 * The share of `built` nodes that alias expansions may make, as go-yaml v2 allows it: 99% of a
 * small or medium document, 10% of a very large one, falling evenly between.
 */
export function allowedAliasShare(built: number): number {
  if (built <= ALIAS_SHARE_RANGE_LOW) return 0.99;
  if (built >= ALIAS_SHARE_RANGE_HIGH) return 0.1;
  const along = (built - ALIAS_SHARE_RANGE_LOW) / (ALIAS_SHARE_RANGE_HIGH - ALIAS_SHARE_RANGE_LOW);
  return 0.99 - 0.89 * along;
}

/** The characters of scalars that alias expansions may make in a file, whatever its size. */
export const ALIASED_CHARACTERS_ALWAYS_ALLOWED = 16 * 1024 * 1024;
/** Past that, how many times the file's own length alias expansions may make in scalars. */
export const ALIASED_CHARACTERS_PER_CHARACTER = 4;

/**
 * The characters of scalars that alias expansions may make in a file of `length` characters.
 * go-yaml counts nodes only, and so does {@link allowedAliasShare}: one long anchored string
 * aliased a thousand times is a thousand nodes, and gigabytes once each copy is serialised.
 */
export function allowedAliasedCharacters(length: number): number {
  return Math.max(ALIASED_CHARACTERS_ALWAYS_ALLOWED, ALIASED_CHARACTERS_PER_CHARACTER * length);
}

export interface Limits {
  readonly maxAliasCount: number;
  readonly maxDepth: number;
  /** The characters of scalars alias expansions may still make in the file (all its documents). */
  readonly aliasedCharacters: { readonly allowed: number; left: number };
}
