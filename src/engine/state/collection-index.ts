import type { LabelQuery, LabelTerm } from '../resource/label-query.js';
import type { Resource } from '../resource/resource.js';
import type { ListOptions } from './state.js';

type Ids = Set<string>;

/**
 * The secondary indexes of one kind: ids by label value and ids by owner, so that a list with a
 * label equality query (or an owner) costs what it returns instead of a scan of the kind.
 *
 * An index is built on the first query that can use it (a label key is indexed once some query
 * asks for an equal value of it) and then kept current on every write. A kind nobody queries that
 * way pays nothing on its writes.
 */
export class CollectionIndex {
  /** Label key, then value, then the ids carrying it: only for keys queried so far. */
  readonly #labels = new Map<string, Map<string, Ids>>();
  /** Owner, then ids; built on the first owner query. */
  #owners: Map<string, Ids> | undefined;

  /** Keeps the indexes current: `old` is undefined on a create, `next` on a destroy. */
  update(id: string, old: Resource | undefined, next: Resource | undefined): void {
    // Most kinds are never queried this way: no iterator to make on their writes.
    if (this.#labels.size > 0) this.#updateLabels(id, old, next);
    if (this.#owners) {
      const was = old?.metadata.owner;
      const is = next?.metadata.owner;
      if (was !== is) {
        if (was !== undefined) removeId(this.#owners, was, id);
        if (is !== undefined) addId(this.#owners, is, id);
      }
    }
  }

  #updateLabels(id: string, old: Resource | undefined, next: Resource | undefined): void {
    for (const [key, byValue] of this.#labels) {
      const was = old && labelValue(old, key);
      const is = next && labelValue(next, key);
      if (was === is) continue;
      if (was !== undefined) removeId(byValue, was, id);
      if (is !== undefined) addId(byValue, is, id);
    }
  }

  /**
   * The ids that may match `options` (a superset: the caller still applies every filter), or
   * `undefined` when no index narrows the query and the whole kind must be scanned.
   */
  candidates(
    options: ListOptions,
    items: ReadonlyMap<string, Resource>,
  ): ReadonlySet<string> | undefined {
    const byLabels = this.#labelCandidates(options.labelQueries, items);
    if (options.owner === undefined) return byLabels;
    const byOwner = this.#ownerIndex(items).get(options.owner) ?? EMPTY;
    return byLabels === undefined || byOwner.size <= byLabels.size ? byOwner : byLabels;
  }

  /** The union over the OR-ed queries of each one's narrowest indexed term. */
  #labelCandidates(
    queries: readonly LabelQuery[] | undefined,
    items: ReadonlyMap<string, Resource>,
  ): ReadonlySet<string> | undefined {
    if (queries === undefined || queries.length === 0) return undefined;
    const sets: ReadonlySet<string>[] = [];
    for (const query of queries) {
      let best: ReadonlySet<string> | undefined;
      for (const term of query.terms) {
        const set = this.#termCandidates(term, items);
        if (set !== undefined && (best === undefined || set.size < best.size)) best = set;
      }
      // A query with no indexable term can match anything: scan.
      if (best === undefined) return undefined;
      sets.push(best);
    }
    if (sets.length === 1) return sets[0];
    const union = new Set<string>();
    for (const set of sets) for (const id of set) union.add(id);
    return union;
  }

  /** Ids for an `equal` or `in` term (not inverted); others cannot use an index. */
  #termCandidates(
    term: LabelTerm,
    items: ReadonlyMap<string, Resource>,
  ): ReadonlySet<string> | undefined {
    if (term.invert || (term.op !== 'equal' && term.op !== 'in')) return undefined;
    const byValue = this.#labelIndex(term.key, items);
    const values = term.op === 'equal' ? term.values.slice(0, 1) : term.values;
    if (values.length === 1) return byValue.get(values[0] as string) ?? EMPTY;
    const union = new Set<string>();
    for (const value of values) for (const id of byValue.get(value) ?? EMPTY) union.add(id);
    return union;
  }

  #labelIndex(key: string, items: ReadonlyMap<string, Resource>): Map<string, Ids> {
    let byValue = this.#labels.get(key);
    if (!byValue) {
      byValue = new Map();
      for (const [id, resource] of items) {
        const value = labelValue(resource, key);
        if (value !== undefined) addId(byValue, value, id);
      }
      this.#labels.set(key, byValue);
    }
    return byValue;
  }

  #ownerIndex(items: ReadonlyMap<string, Resource>): Map<string, Ids> {
    if (!this.#owners) {
      this.#owners = new Map();
      for (const [id, resource] of items) addId(this.#owners, resource.metadata.owner, id);
    }
    return this.#owners;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

function labelValue(resource: Resource, key: string): string | undefined {
  const { labels } = resource.metadata;
  return Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : undefined;
}

function addId(index: Map<string, Ids>, value: string, id: string): void {
  let ids = index.get(value);
  if (!ids) index.set(value, (ids = new Set()));
  ids.add(id);
}

function removeId(index: Map<string, Ids>, value: string, id: string): void {
  const ids = index.get(value);
  if (!ids) return;
  ids.delete(id);
  // Values come and go (a host label per host): keep no empty sets behind.
  if (ids.size === 0) index.delete(value);
}
