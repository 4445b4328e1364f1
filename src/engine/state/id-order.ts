import { compareStrings } from '../compare-strings.js';

/**
 * How many lists merge a few out-of-order ids in, while they stay out of order, before one
 * rebuilds the map sorted. A rebuild costs about ten merges at a million resources (it hashes
 * every key into a new map, a cache miss each), a merge a little more than a list of a sorted
 * map: so a kind that is listed again and again is rebuilt soon, and one that gets a create out
 * of order before each list is not rebuilt for every list.
 */
export const MERGES_BEFORE_REBUILD = 4;

/**
 * Keeps a kind's map of resources in the order its lists return them: sorted by id, as COSI's
 * lists are. A list then walks the map's own entries, one after the other in memory, with no
 * lookup per id (at a million resources a hash lookup per id in random order is a cache miss per
 * resource, and made a list several times slower per resource than at ten thousand).
 *
 * A `Map` iterates in insertion order, and most writes keep that order sorted without any work:
 * an update keeps its key's place, a destroy keeps the others' order, and a create whose id comes
 * after every id before it goes to the end (a controller writing its outputs while it walks a
 * sorted list of its inputs does exactly this). Only a create out of order breaks it. Such ids
 * (the tail: the last ones in the map's order) are noted, and a list that needs the order either
 * merges them, sorted, into the sorted rest as it walks the map, or rebuilds the map sorted: many
 * of them, or after {@link MERGES_BEFORE_REBUILD} merges. Either is O(n + k log k) for k creates
 * out of order (amortized: a tail is sorted anew for at most that many lists), never a splice per
 * write (which made creating or destroying n resources in random order, with lists between,
 * O(n²)).
 */
export class IdOrder {
  /** The greatest id created since the map was last known sorted (not lowered by destroys). */
  #last: string | undefined = undefined;
  /**
   * Created since the map's order stopped being sorted, and still in it: the ids at the end of
   * the map's insertion order. Everything before them is sorted. Empty while the map is sorted.
   */
  readonly #tail = new Set<string>();
  /** Lists that merged the tail in since it began. */
  #merges = 0;

  /** A new id, just put into the map. */
  added(id: string): void {
    if (this.#tail.size === 0) {
      if (this.#last === undefined || compareStrings(id, this.#last) > 0) {
        this.#last = id;
        return;
      }
      this.#merges = 0;
    }
    this.#tail.add(id);
  }

  /** An id just deleted from the map. */
  removed(id: string): void {
    if (this.#tail.size > 0) this.#tail.delete(id);
  }

  /**
   * The map's values in sorted id order, as one of:
   * - a map in sorted order: `items` itself while its order is sorted, or a new map built
   *   sorted, which from then on replaces `items` (the caller drops the old one, so that only
   *   one copy stays alive);
   * - a new array, the out-of-order ids merged in, while a rebuild would not pay.
   */
  sorted<V>(items: Map<string, V>): Map<string, V> | V[] {
    const tail = this.#tail;
    if (tail.size === 0) return items;
    const ids = [...tail].sort(compareStrings);
    if (tail.size * 8 < items.size && this.#merges < MERGES_BEFORE_REBUILD) {
      this.#merges++;
      return mergedValues(items, ids);
    }
    const rebuilt = rebuild(items, ids);
    tail.clear();
    this.#last = lastOf(ids, rebuilt.lastHead);
    return rebuilt.map;
  }
}

/** The greater of the last tail id and the last id before the tail. */
function lastOf(ids: readonly string[], lastHead: string | undefined): string {
  const lastTail = ids[ids.length - 1] as string;
  return lastHead === undefined || compareStrings(lastTail, lastHead) > 0 ? lastTail : lastHead;
}

/** `items` in sorted order, `tail` (its last ids, sorted) merged into the sorted rest. */
function rebuild<V>(
  items: ReadonlyMap<string, V>,
  tail: readonly string[],
): { map: Map<string, V>; lastHead: string | undefined } {
  const map = new Map<string, V>();
  const lastHead = walkMerged(items, tail, (id, value) => map.set(id, value));
  return { map, lastHead };
}

/** The values of `items` in sorted order, `tail` (its last ids, sorted) merged in. */
function mergedValues<V>(items: ReadonlyMap<string, V>, tail: readonly string[]): V[] {
  const out: V[] = [];
  walkMerged(items, tail, (_, value) => out.push(value));
  return out;
}

/**
 * Visits the entries of `items` in sorted id order: the sorted ones before `tail` (its last ids,
 * given sorted) as they come, each tail id where it belongs. Returns the last id before the tail.
 */
function walkMerged<V>(
  items: ReadonlyMap<string, V>,
  tail: readonly string[],
  visit: (id: string, value: V) => unknown,
): string | undefined {
  let head = items.size - tail.length;
  let j = 0;
  let lastHead: string | undefined;
  const visitTail = (id: string): unknown => visit(id, items.get(id) as V);
  for (const [id, value] of items) {
    if (head-- === 0) break;
    for (; j < tail.length && compareStrings(tail[j] as string, id) < 0; j++) {
      visitTail(tail[j] as string);
    }
    visit(id, value);
    lastHead = id;
  }
  for (; j < tail.length; j++) visitTail(tail[j] as string);
  return lastHead;
}
