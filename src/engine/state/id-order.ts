import { compareStrings } from '../compare-strings.js';

/**
 * The order in which a kind's list returns its ids: sorted, as COSI's lists are.
 *
 * Kept without work on the write path wherever possible:
 * - While every id created came after all the ids before it (a controller writing its outputs
 *   while it walks a sorted list of its inputs does exactly this), the map's own insertion order
 *   is the sorted order, and no array is kept at all.
 * - Otherwise the sorted ids are built on the first list that needs them. Later changes are only
 *   noted; the next list merges them in: O(n + k log k) for k changes, never a splice per write
 *   (which made creating or destroying n resources in random order, with lists between, O(n²)).
 */
export class IdOrder {
  /** Whether the map's insertion order is still the sorted order. */
  #mapOrder = true;
  #last: string | undefined = undefined;
  /** The sorted ids as of the last list, once the map's order stopped being sorted. */
  #sorted: string[] | undefined = undefined;
  /** Created since the last list and not yet in `#sorted`. */
  readonly #added = new Set<string>();
  /** Destroyed since the last list and still in `#sorted`. */
  readonly #removed = new Set<string>();

  /** A new id, just put into the map. */
  added(id: string): void {
    if (this.#mapOrder) {
      if (this.#last === undefined || compareStrings(id, this.#last) > 0) {
        this.#last = id;
        return;
      }
      this.#mapOrder = false;
    }
    if (this.#sorted === undefined) return;
    // Destroyed and created again since the last list: it never left `#sorted`.
    if (this.#removed.delete(id)) return;
    const last = this.#sorted[this.#sorted.length - 1];
    if (last === undefined || compareStrings(id, last) > 0) this.#sorted.push(id);
    else this.#added.add(id);
  }

  /** An id just deleted from the map. */
  removed(id: string): void {
    if (this.#mapOrder || this.#sorted === undefined) return;
    if (!this.#added.delete(id)) this.#removed.add(id);
  }

  /** The ids in sorted order; `undefined` when the map's own order is sorted. */
  sortedIds(ids: Iterable<string>): readonly string[] | undefined {
    if (this.#mapOrder) return undefined;
    if (this.#sorted === undefined) return (this.#sorted = [...ids].sort(compareStrings));
    if (this.#added.size > 0 || this.#removed.size > 0) {
      this.#sorted = merge(this.#sorted, this.#removed, [...this.#added].sort(compareStrings));
      this.#added.clear();
      this.#removed.clear();
    }
    return this.#sorted;
  }
}

/** `sorted` without `removed`, merged with `extra` (sorted too). */
function merge(sorted: readonly string[], removed: ReadonlySet<string>, extra: string[]): string[] {
  const out: string[] = [];
  let j = 0;
  for (const id of sorted) {
    if (removed.has(id)) continue;
    while (j < extra.length && compareStrings(extra[j] as string, id) < 0)
      out.push(extra[j++] as string);
    out.push(id);
  }
  while (j < extra.length) out.push(extra[j++] as string);
  return out;
}
