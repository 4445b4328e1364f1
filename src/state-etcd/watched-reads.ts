import { compareStrings } from '../engine/compare-strings.js';
import { ALL_NAMESPACES, type Kind } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type { ListOptions } from '../engine/state/state.js';
import type { LabelQuery } from '../engine/resource/label-query.js';
import { matchesFilters } from '../engine/state/watch-filters.js';
import type { WatchedValues } from './etcd-change-event.js';
import type { KeyLayout } from './key-layout.js';

/**
 * The values a watch keeps of its range (see {@link WatchedValues}), usable to answer reads:
 * every key of its kind (or, `everyNamespace`, of its type in every namespace) as of
 * `revision()`, the revision of the last change it read; undefined once the watch ended.
 */
export interface WatchedSource {
  readonly values: WatchedValues;
  revision(): number | undefined;
}

/** A read answered from a watch's values, and the revision they were at. */
export type CachedRead<T> = { readonly found: T; readonly revision: number } | undefined;

/**
 * Reads of a kind this process watches whole, answered from the values its watches keep instead
 * of etcd (controller-runtime's informer cache; COSI's cached resources), with two guarantees:
 *
 * - read-your-writes: the state notes the revision of each of its writes by type
 *   ({@link saw}); values older than this process's last write of the type are not used, the read
 *   goes to etcd (the watch's event of the write comes soon after, and the cache with it);
 * - monotonic reads: a read never returns values older than any this state returned or read of
 *   the type before (the revision of each etcd read is noted too, and of each cached answer).
 *
 * A read of another process's write is seen once the write's event has come to one of this
 * process's watches of its kind: a controller reads what its events told it of, or newer. Until
 * then it may get the value before; its write, a compare-and-swap, then fails and it reads again.
 * What still goes to etcd: a kind no watch here keeps whole (a filtered, resumed or replayed
 * watch keeps none), a watch still listing its kind, and values older than the floor above.
 */
export class WatchedReads {
  readonly #layout: KeyLayout;
  /** Sources by resource prefix (a kind), and by type (watches of every namespace). */
  readonly #byKind = new Map<string, Set<WatchedSource>>();
  readonly #byType = new Map<string, Set<WatchedSource>>();
  /** The newest revision of each type this state wrote, read or answered. */
  readonly #floors = new Map<string, number>();
  /** Reads answered from watches so far. */
  hits = 0;

  constructor(layout: KeyLayout) {
    this.#layout = layout;
  }

  /** Adds a watch's values as a source for reads of `kind` (every namespace: of its type). */
  add(kind: Kind, source: WatchedSource): void {
    const map = kind.namespace === ALL_NAMESPACES ? this.#byType : this.#byKind;
    const id = kind.namespace === ALL_NAMESPACES ? kind.type : this.#layout.resourcePrefix(kind);
    let set = map.get(id);
    if (set === undefined) map.set(id, (set = new Set()));
    set.add(source);
  }

  /** Notes that this state wrote or read `type` at `revision`: no read returns older values. */
  saw(type: string, revision: number): void {
    if (revision > (this.#floors.get(type) ?? 0)) this.#floors.set(type, revision);
  }

  /**
   * One resource by key, from a watch of its kind, if its values are at `seen` or later (the
   * revision of the newest value of the key this state has seen by any means); undefined: ask
   * etcd.
   */
  get(kind: Kind, key: string, seen = 0): CachedRead<Resource | null> {
    const best = this.#best(kind, kind.namespace === ALL_NAMESPACES, seen);
    if (best === undefined) return undefined;
    this.hits++;
    return { found: best.source.values.get(key) ?? null, revision: best.revision };
  }

  /** The matching resources of a kind, sorted as etcd's list sorts them; undefined: ask etcd. */
  list(kind: Kind, options: ListOptions): CachedRead<Resource[]> {
    const everyNamespace = kind.namespace === ALL_NAMESPACES;
    const best = this.#best(kind, everyNamespace);
    if (best === undefined) return undefined;
    this.hits++;
    const prefix = everyNamespace ? undefined : this.#layout.resourcePrefix(kind);
    const found: Resource[] = [];
    const { values } = best.source;
    const consider = (key: string, resource: Resource): void => {
      if (prefix !== undefined && !key.startsWith(prefix)) return;
      if (matchesFilters(resource, options)) found.push(resource);
    };
    const keys = labelledKeys(values, options.labelQueries);
    if (keys === undefined) for (const [key, resource] of values) consider(key, resource);
    else {
      for (const key of keys) {
        const resource = values.get(key);
        if (resource !== undefined) consider(key, resource);
      }
    }
    found.sort(
      (a, b) =>
        (everyNamespace ? compareStrings(a.metadata.namespace, b.metadata.namespace) : 0) ||
        compareStrings(a.metadata.id, b.metadata.id),
    );
    return { found, revision: best.revision };
  }

  /**
   * The source with the newest values for `kind`, if they are not older than the floor of its
   * type (the floor then rises to them). A watch of the kind itself, or of its type in every
   * namespace, serves a read of one namespace; only the latter one of every namespace.
   */
  #best(
    kind: Kind,
    everyNamespace: boolean,
    seen = 0,
  ): { source: WatchedSource; revision: number } | undefined {
    let best: { source: WatchedSource; revision: number } | undefined;
    const consider = (sources: Set<WatchedSource> | undefined): void => {
      if (sources === undefined) return;
      for (const source of sources) {
        const revision = source.revision();
        if (revision === undefined) sources.delete(source);
        else if (best === undefined || revision > best.revision) best = { source, revision };
      }
    };
    if (!everyNamespace) consider(this.#byKind.get(this.#layout.resourcePrefix(kind)));
    consider(this.#byType.get(kind.type));
    if (best === undefined || best.revision < Math.max(seen, this.#floors.get(kind.type) ?? 0)) {
      return undefined;
    }
    this.saw(kind.type, best.revision);
    return best;
  }
}

/**
 * The keys of the values a label query can match, from the values' label index: for each query
 * (they are OR-ed), those with the value of one of its equality or `in` terms; undefined when a
 * query has no such term (every value is read). Each is still checked against every filter.
 */
function labelledKeys(
  values: WatchedValues,
  queries: readonly LabelQuery[] | undefined,
): Set<string> | undefined {
  if (queries === undefined || queries.length === 0) return undefined;
  const keys = new Set<string>();
  for (const query of queries) {
    const term = query.terms.find((t) => !t.invert && (t.op === 'equal' || t.op === 'in'));
    if (term === undefined) return undefined;
    for (const value of term.values)
      for (const key of values.withLabel(term.key, value)) keys.add(key);
  }
  return keys;
}
