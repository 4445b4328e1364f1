import { compareStrings } from '../compare-strings.js';

/**
 * Keeps a kind's map of resources in the order its lists return them: sorted by id, as COSI's
 * lists are. A list then walks the map's own entries, one after the other in memory, with no
 * lookup per id (at a million resources a hash lookup per id in random order is a cache miss per
 * resource, and made a list several times slower per resource than at ten thousand).
 *
 * A `Map` iterates in insertion order, and most writes keep that order sorted without any work:
 * an update keeps its key's place, a destroy keeps the others' order, and a create whose id comes
 * after every id before it goes to the end (a controller writing its outputs while it walks a
 * sorted list of its inputs does exactly this). Only a create out of order breaks it; such
 * creates are noted, and the next list that needs the order rebuilds the map sorted in one pass:
 * O(n + k log k) for k creates since the break, never a splice per write (which made creating or
 * destroying n resources in random order, with lists between, O(n²)).
 */
export class IdOrder {
  /** The greatest id created since the map was last known sorted (not lowered by destroys). */
  #last: string | undefined = undefined;
  /**
   * Created since the map's order stopped being sorted, and still in it: the ids at the end of
   * the map's insertion order. Everything before them is sorted. Empty while the map is sorted.
   */
  readonly #tail = new Set<string>();

  /** A new id, just put into the map. */
  added(id: string): void {
    if (this.#tail.size === 0 && (this.#last === undefined || compareStrings(id, this.#last) > 0)) {
      this.#last = id;
      return;
    }
    this.#tail.add(id);
  }

  /** An id just deleted from the map. */
  removed(id: string): void {
    if (this.#tail.size > 0) this.#tail.delete(id);
  }

  /**
   * The map's entries in sorted order: `items` itself while its order is sorted, otherwise a new
   * map built sorted, which from then on replaces `items` (the caller drops the old one, so that
   * only one copy stays alive).
   */
  sorted<V>(items: Map<string, V>): Map<string, V> {
    if (this.#tail.size === 0) return items;
    const tail = [...this.#tail].sort(compareStrings);
    const out = new Map<string, V>();
    // The map's first entries, before the tail, are sorted: merge the sorted tail into them.
    let head = items.size - tail.length;
    let j = 0;
    let next = tail[0] as string;
    let last: string | undefined;
    for (const [id, value] of items) {
      if (head-- === 0) break;
      while (j < tail.length && compareStrings(next, id) < 0) {
        out.set(next, items.get(next) as V);
        next = tail[++j] as string;
      }
      out.set(id, value);
      last = id;
    }
    for (; j < tail.length; j++) out.set((last = tail[j] as string), items.get(last) as V);
    this.#tail.clear();
    this.#last = last;
    return out;
  }
}
