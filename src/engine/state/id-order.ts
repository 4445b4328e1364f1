import { compareStrings } from '../compare-strings.js';

/**
 * How many lists merge the out-of-order ids in, while they stay out of order, before one rebuilds
 * the map sorted. A rebuild hashes every key into a new map in sorted order, a cache miss each:
 * at a million resources it costs about ten merges of a few ids, and three of a tail that holds
 * nearly every id (0.6 s against 0.2 s). So a kind that is listed again and again is rebuilt
 * soon, one that gets a create out of order before each list is not rebuilt for every list, and
 * one listed once (the inputs of a controller chain, created in an order that is not their ids')
 * never pays for a rebuild.
 */
export const MERGES_BEFORE_REBUILD = 4;

/**
 * A tail smaller than the kind divided by this has its values looked up by id; a larger one is
 * read by iterating the map once more (see {@link TailMerge}).
 */
export const LOOKUPS_BELOW = 16;

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
 * merges them, sorted, into the sorted rest as it walks the map, or, after
 * {@link MERGES_BEFORE_REBUILD} merges, rebuilds the map sorted. Either is O(n + k log k) for k
 * creates out of order (amortized: a tail is sorted anew for at most that many lists), never a
 * splice per write (which made creating or destroying n resources in random order, with lists
 * between, O(n²)).
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
   * - a new array, the out-of-order ids merged in, for the first lists of a tail (see
   *   {@link MERGES_BEFORE_REBUILD}).
   */
  sorted<V>(items: Map<string, V>): Map<string, V> | V[] {
    const tail = this.#tail;
    if (tail.size === 0) return items;
    const merge = new TailMerge(items, tail);
    if (this.#merges < MERGES_BEFORE_REBUILD) {
      this.#merges++;
      const out: V[] = [];
      merge.walk((_, value) => out.push(value));
      return out;
    }
    const map = new Map<string, V>();
    const lastHead = merge.walk((id, value) => map.set(id, value));
    tail.clear();
    this.#last = merge.greatest(lastHead);
    return map;
  }
}

/**
 * The entries of a map whose last entries (the tail, in the order they were created) are out of
 * order and the rest sorted, walked in sorted id order.
 *
 * A small tail's values are looked up by id. A large one's are read from copies of the map's keys
 * and values: at 100,000 resources created in an order that is not the ids' (`r0`, `r1`, ...,
 * `r10` sorts before `r2`) a lookup per tail id, a cache miss each, was most of what the rebuild
 * cost, and copying the map costs far less than a miss per entry.
 */
class TailMerge<V> {
  readonly #items: ReadonlyMap<string, V>;
  readonly #headSize: number;
  readonly #ids: string[];
  readonly #values: V[];
  /** Indexes into the tail's ids and values, in sorted id order. */
  readonly #order: number[];

  constructor(items: ReadonlyMap<string, V>, tail: ReadonlySet<string>) {
    this.#items = items;
    this.#headSize = items.size - tail.size;
    // Where the tail starts in `#ids` and `#values`.
    let first = 0;
    if (tail.size * LOOKUPS_BELOW < items.size) {
      this.#ids = [...tail];
      this.#values = this.#ids.map((id) => items.get(id) as V);
    } else {
      // Every key and value copied natively, the sorted head's too: at a million, a loop that
      // skipped the head and pushed the tail's cost twice the sort.
      this.#ids = [...items.keys()];
      this.#values = [...items.values()];
      first = this.#headSize;
    }
    const ids = this.#ids;
    const order: number[] = [];
    for (let i = first; i < ids.length; i++) order.push(i);
    this.#order = order.sort((a, b) => compareStrings(ids[a] as string, ids[b] as string));
  }

  /** Visits every entry in sorted id order; returns the last id before the tail. */
  walk(visit: (id: string, value: V) => unknown): string | undefined {
    const ids = this.#ids;
    const values = this.#values;
    const order = this.#order;
    let head = this.#headSize;
    let j = 0;
    let lastHead: string | undefined;
    for (const [id, value] of this.#items) {
      if (head-- === 0) break;
      for (; j < order.length && compareStrings(ids[order[j] as number] as string, id) < 0; j++) {
        const k = order[j] as number;
        visit(ids[k] as string, values[k] as V);
      }
      visit(id, value);
      lastHead = id;
    }
    for (; j < order.length; j++) {
      const k = order[j] as number;
      visit(ids[k] as string, values[k] as V);
    }
    return lastHead;
  }

  /** The greatest id: the last of the tail's or `lastHead`, the last before the tail. */
  greatest(lastHead: string | undefined): string {
    const lastTail = this.#ids[this.#order[this.#order.length - 1] as number] as string;
    return lastHead === undefined || compareStrings(lastTail, lastHead) > 0 ? lastTail : lastHead;
  }
}
