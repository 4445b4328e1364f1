/** The lists of the in-memory state: a kind's resources sorted by id, filtered as asked. */
import { compareStrings } from '../compare-strings.js';
import { ALL_NAMESPACES, type Kind } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import type { ListOptions } from './state.js';
import type { Collection, Collections } from './memory-collections.js';
import { hasFilters, matchesFilters } from './watch-filters.js';

/** The resources of a kind (of a type in every namespace: by namespace, then id). */
export function listKind(collections: Collections, kind: Kind, options: ListOptions): Resource[] {
  if (kind.namespace === ALL_NAMESPACES) return listAllNamespaces(collections, kind.type, options);
  const collection = collections.find(kind);
  return collection ? listCollection(collection, options) : [];
}

/** The type in every namespace, sorted by namespace, then id. */
export function listAllNamespaces(
  collections: Collections,
  type: string,
  options: ListOptions,
): Resource[] {
  const byNamespace = collections.ofType(type);
  if (!byNamespace) return [];
  const namespaces = [...byNamespace.keys()].sort(compareStrings);
  const out: Resource[] = [];
  for (const namespace of namespaces) {
    for (const resource of listKind(collections, { namespace, type }, options)) out.push(resource);
  }
  return out;
}

function listCollection(collection: Collection, options: ListOptions): Resource[] {
  const { items } = collection;
  const filtered = hasFilters(options);
  const candidates = filtered ? collection.index.candidates(options, items) : undefined;
  // Few candidates: sort them alone rather than walk the whole kind in order.
  if (candidates !== undefined && candidates.size * 8 < items.size) {
    const out: Resource[] = [];
    for (const id of candidates) {
      const resource = items.get(id) as Resource;
      if (matchesFilters(resource, options)) out.push(resource);
    }
    return out.sort(byId);
  }
  const sorted = collection.order.sorted(items);
  let values: Iterable<Resource>;
  if (sorted instanceof Map) {
    // In sorted order (rebuilt so if creates out of order broke it): walked as it is, with no
    // lookup per id. V8 copies a map's values into an array natively, faster than a loop.
    collection.items = sorted;
    if (!filtered) return [...sorted.values()];
    values = sorted.values();
  } else {
    // A new array, the ids out of order merged in: the list itself when nothing filters.
    if (!filtered) return sorted;
    values = sorted;
  }
  const out: Resource[] = [];
  for (const resource of values) {
    if (candidates !== undefined && !candidates.has(resource.metadata.id)) continue;
    if (!matchesFilters(resource, options)) continue;
    out.push(resource);
  }
  return out;
}

const byId = (a: Resource, b: Resource): number => compareStrings(a.metadata.id, b.metadata.id);
