import type { IRequestOp } from 'etcd3';
import type { LabelTerm } from '../engine/resource/label-query.js';
import type { Kind, Pointer } from '../engine/resource/pointer.js';
import type { ListOptions } from '../engine/state/state.js';
import type { KeyLayout } from './key-layout.js';

type Labels = Readonly<Record<string, string>>;

/**
 * The most labels a resource may have for them to be indexed. etcd refuses a transaction of more
 * than 128 operations (`--max-txn-ops`); an update that changes every label of an indexed
 * resource takes two per label (the old value's key goes, the new one's comes) and one for the
 * resource. A resource with more labels is listed under `u/` instead, and every label query
 * reads it and filters it as a scan would.
 */
export const MAX_INDEXED_LABELS = 63;

const indexed = (labels: Labels | undefined): labels is Labels =>
  labels !== undefined && Object.keys(labels).length <= MAX_INDEXED_LABELS;

/**
 * The etcd operations that keep the label index of the resource at `pointer` in step with a
 * write of it, for the same transaction: `before` is undefined on a create, `after` on a
 * destroy. Only what changed is written.
 */
export function labelIndexOps(
  layout: KeyLayout,
  pointer: Pointer,
  before: Labels | undefined,
  after: Labels | undefined,
): IRequestOp[] {
  const ops: IRequestOp[] = [];
  const put = (key: string): void => {
    ops.push({ request_put: { key: Buffer.from(key), value: Buffer.alloc(0) } });
  };
  const remove = (key: string): void => {
    ops.push({ request_delete_range: { key: Buffer.from(key) } });
  };
  const unindexedKey = `${layout.unindexedPrefix(pointer)}${pointer.id}`;
  const wasIndexed = indexed(before);
  const isIndexed = indexed(after);
  if (before !== undefined && !wasIndexed && (after === undefined || isIndexed))
    remove(unindexedKey);
  if (after !== undefined && !isIndexed && (before === undefined || wasIndexed)) put(unindexedKey);
  if (wasIndexed) {
    for (const [key, value] of Object.entries(before)) {
      if (!isIndexed || !hasLabel(after, key, value)) remove(layout.labelKey(pointer, key, value));
    }
  }
  if (isIndexed) {
    for (const [key, value] of Object.entries(after)) {
      if (!wasIndexed || !hasLabel(before, key, value)) put(layout.labelKey(pointer, key, value));
    }
  }
  return ops;
}

function hasLabel(labels: Labels, key: string, value: string): boolean {
  return Object.prototype.hasOwnProperty.call(labels, key) && labels[key] === value;
}

/** A range of index keys, and how to read a resource id off each. */
export interface IndexRange {
  readonly prefix: string;
  /** The keys hold a label value segment before the id (a range of every value of a key). */
  readonly valueSegment: boolean;
}

/** The id an index key of `range` names. */
export function indexedId(range: IndexRange, key: string): string {
  const rest = key.slice(range.prefix.length);
  return range.valueSegment ? rest.slice(rest.indexOf('/') + 1) : rest;
}

/**
 * The index ranges whose ids are every resource that can match the label queries of `options`
 * (a superset: the caller still applies every filter), the unindexed resources' range included;
 * `undefined` when some query has no term the index can answer and the kind must be read whole.
 * Per query, one term: an equality (one range), else an `in` (one per value), else an `exists`
 * (every value of the key).
 */
export function labelIndexRanges(
  layout: KeyLayout,
  kind: Kind,
  options: ListOptions,
): IndexRange[] | undefined {
  const queries = options.labelQueries;
  if (queries === undefined || queries.length === 0) return undefined;
  const ranges = new Map<string, IndexRange>();
  const add = (prefix: string, valueSegment: boolean): void => {
    ranges.set(prefix, { prefix, valueSegment });
  };
  for (const query of queries) {
    const term = indexableTerm(query.terms);
    if (term === undefined) return undefined;
    if (term.op === 'exists') add(layout.labelPrefix(kind, term.key), true);
    else {
      const values = term.op === 'equal' ? term.values.slice(0, 1) : term.values;
      for (const value of values) add(layout.labelPrefix(kind, term.key, value), false);
    }
  }
  add(layout.unindexedPrefix(kind), false);
  return [...ranges.values()];
}

const RANK: Partial<Record<LabelTerm['op'], number>> = { equal: 0, in: 1, exists: 2 };

function indexableTerm(terms: readonly LabelTerm[]): LabelTerm | undefined {
  let best: LabelTerm | undefined;
  for (const term of terms) {
    const rank = term.invert ? undefined : RANK[term.op];
    if (rank === undefined) continue;
    if (best === undefined || rank < (RANK[best.op] as number)) best = term;
  }
  return best;
}
