/**
 * Hops of a lineage when none are asked for. A converged project's lineage is as deep as its
 * chain of controllers (a handful of hops); a run that did not settle writes the same resources
 * over and over, and each version leads to the one before it: thousands of hops, a tree nobody
 * reads (and too deep to walk). The tree says where it was cut and `--depth` goes further.
 */
export const DEFAULT_LINEAGE_DEPTH = 32;

/** The most hops `--depth` may ask for: the walk is recursive, as is the tree's rendering. */
export const MAX_LINEAGE_DEPTH = 1000;
