import { deepEqual, deepFreeze, defineOwn, freezeCopy } from './plain-data.js';

/** A resource is `running` until someone starts tearing it down. */
export type Phase = 'running' | 'tearingDown';

/**
 * A reference from a resource to its owner, as controller-runtime's `ownerReferences`: labels
 * never establish ownership, these do. It names the owner by type and id: one in the resource's
 * namespace, or, when the owner's kind is cluster-scoped, the one object of that type and id,
 * whichever namespace the resource is in (see `owner-scope.ts`).
 */
export interface OwnerReference {
  readonly type: string;
  readonly id: string;
  /** At most one reference of a resource is its managing controller. */
  readonly controller?: boolean;
  /**
   * The referenced owner may not be destroyed while this resource exists, when an owner-reference
   * garbage collector runs (see `createGarbageCollector`): Kubernetes' foreground deletion.
   */
  readonly blockOwnerDeletion?: boolean;
}

/** Metadata as stored: read-only. */
export interface ResourceMetadata {
  readonly namespace: string;
  readonly type: string;
  readonly id: string;
  /** 0 until the resource is first stored, then 1 and +1 on every write. */
  readonly version: number;
  /**
   * 0 until the resource is first stored, then 1 and +1 on every write that changes what is asked
   * of it (see `generation.ts`): Kubernetes' `metadata.generation`.
   */
  readonly generation: number;
  /** The controller that wrote it; empty for a user's resource. */
  readonly owner: string;
  readonly phase: Phase;
  /** A set: no duplicates, order of insertion. */
  readonly finalizers: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** Milliseconds since the epoch, from the state's clock. */
  readonly created: number;
  readonly updated: number;
  readonly ownerReferences: readonly OwnerReference[];
}

/** Metadata of a draft: the same fields, writable. */
export interface MutableMetadata {
  namespace: string;
  type: string;
  id: string;
  version: number;
  generation: number;
  owner: string;
  phase: Phase;
  finalizers: string[];
  labels: Record<string, string>;
  annotations: Record<string, string>;
  created: number;
  updated: number;
  ownerReferences: OwnerReference[];
}

/** Optional metadata fields accepted when a new resource is made. */
export interface MetadataInit {
  labels?: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
  finalizers?: readonly string[];
  ownerReferences?: readonly OwnerReference[];
}

export function createMetadata(
  namespace: string,
  type: string,
  id: string,
  init?: MetadataInit,
): MutableMetadata {
  return {
    namespace,
    type,
    id,
    version: 0,
    generation: 0,
    owner: '',
    phase: 'running',
    finalizers: init?.finalizers ? [...new Set(init.finalizers)] : [],
    labels: init?.labels ? copyEntries(init.labels) : {},
    annotations: init?.annotations ? copyEntries(init.annotations) : {},
    created: 0,
    updated: 0,
    ownerReferences: init?.ownerReferences ? init.ownerReferences.map((r) => ({ ...r })) : [],
  };
}

export function cloneMetadata(md: ResourceMetadata): MutableMetadata {
  return {
    namespace: md.namespace,
    type: md.type,
    id: md.id,
    version: md.version,
    generation: md.generation,
    owner: md.owner,
    phase: md.phase,
    // Most resources have none of these: a fresh empty is cheaper than copying one.
    finalizers: md.finalizers.length === 0 ? [] : [...md.finalizers],
    labels: isEmpty(md.labels) ? {} : copyEntries(md.labels),
    annotations: isEmpty(md.annotations) ? {} : copyEntries(md.annotations),
    created: md.created,
    updated: md.updated,
    ownerReferences:
      md.ownerReferences.length === 0 ? [] : md.ownerReferences.map((r) => ({ ...r })),
  };
}

/**
 * {@link cloneMetadata} of a stored resource's metadata (version 1 or later), the same copy from
 * an allocation site of its own: V8 decides per site whether to allocate straight into the old
 * generation. Drafts of new resources are nearly all stored (long-lived); drafts of stored ones
 * are often dropped (a `modify` that changes nothing), and sharing the site made them be
 * allocated in the old generation too, garbage only a full collection frees.
 */
export function cloneStoredMetadata(md: ResourceMetadata): MutableMetadata {
  return {
    namespace: md.namespace,
    type: md.type,
    id: md.id,
    version: md.version,
    generation: md.generation,
    owner: md.owner,
    phase: md.phase,
    finalizers: md.finalizers.length === 0 ? [] : [...md.finalizers],
    labels: isEmpty(md.labels) ? {} : copyEntries(md.labels),
    annotations: isEmpty(md.annotations) ? {} : copyEntries(md.annotations),
    created: md.created,
    updated: md.updated,
    ownerReferences:
      md.ownerReferences.length === 0 ? [] : md.ownerReferences.map((r) => ({ ...r })),
  };
}

/**
 * A copy of labels or annotations, made key by key rather than by spreading: V8 gives a spread
 * copy that is then frozen (as every stored resource's are) a hidden class of its own, so
 * 50,000 resources with the same label keys held 50,000 hidden classes instead of one.
 */
function copyEntries(record: Readonly<Record<string, string>>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const key in record)
    if (Object.prototype.hasOwnProperty.call(record, key)) defineOwn(copy, key, record[key]);
  return copy;
}

/**
 * Metadata for the next version of a stored resource that only changes its finalizers: the
 * stored (frozen) labels, annotations and owner references are shared, not copied. Same fields
 * in the same order as every other metadata literal, so it shares their hidden class.
 *
 * The metadata literals here (drafts, stored copies, finalizer changes) stay separate on purpose
 * rather than one shared builder: V8 decides per allocation site whether to allocate straight
 * into the old generation, and a site shared by short-lived drafts and long-lived stored
 * metadata gets that decision wrong for one of them (see the loaders' manifest-draft.ts).
 */
export function withFinalizers(
  md: ResourceMetadata,
  finalizers: readonly string[],
): MutableMetadata {
  return {
    namespace: md.namespace,
    type: md.type,
    id: md.id,
    version: md.version,
    generation: md.generation,
    owner: md.owner,
    phase: md.phase,
    finalizers: finalizers as string[],
    labels: md.labels,
    annotations: md.annotations,
    created: md.created,
    updated: md.updated,
    ownerReferences: md.ownerReferences as OwnerReference[],
  };
}

// Shared by every stored resource without finalizers, labels, annotations or owner references:
// most resources have none, and a fresh frozen empty per resource was a good part of both the
// time and the heap of storing one.
const NO_STRINGS: readonly string[] = Object.freeze([]);
const NO_ENTRIES: Readonly<Record<string, string>> = Object.freeze({});
const NO_REFERENCES: readonly OwnerReference[] = Object.freeze([]);

function isEmpty(record: Readonly<Record<string, string>>): boolean {
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) return false;
  return true;
}

/**
 * Whether metadata that is not frozen itself holds a collection an updater could not change: a
 * stored resource's, taken over by hand (`{ ...stored.metadata }`). Such an empty collection is
 * one of the shared frozen empties, told by identity; a collection with entries is asked. So
 * the usual draft, with fresh empty collections, costs no call into the runtime per collection
 * (`isFrozen` is one). An empty collection the caller froze itself is not noticed.
 */
export function holdsFrozenCollection(md: MutableMetadata): boolean {
  const { finalizers, labels, annotations, ownerReferences } = md;
  return (
    (finalizers.length === 0 ? finalizers === NO_STRINGS : Object.isFrozen(finalizers)) ||
    (ownerReferences.length === 0
      ? ownerReferences === NO_REFERENCES
      : Object.isFrozen(ownerReferences)) ||
    frozenRecord(labels) ||
    frozenRecord(annotations)
  );
}

function frozenRecord(record: Readonly<Record<string, string>>): boolean {
  return record === NO_ENTRIES || (!isEmpty(record) && Object.isFrozen(record));
}

/**
 * Freezes draft metadata in place for storing, empty collections replaced by shared frozen ones.
 * Metadata already frozen (a stored resource) is returned as it is.
 */
export function freezeMetadata(md: MutableMetadata | ResourceMetadata): ResourceMetadata {
  if (Object.isFrozen(md)) return md;
  const m = md as { -readonly [K in keyof ResourceMetadata]: ResourceMetadata[K] };
  // Empty first (most are, and then whether it is frozen does not matter); a collection that is
  // not is frozen in place, or kept as it is when it already is (shared, or a stored version's).
  m.finalizers = m.finalizers.length === 0 ? NO_STRINGS : deepFreeze(m.finalizers);
  m.labels = isEmpty(m.labels) ? NO_ENTRIES : deepFreeze(m.labels);
  m.annotations = isEmpty(m.annotations) ? NO_ENTRIES : deepFreeze(m.annotations);
  m.ownerReferences =
    m.ownerReferences.length === 0 ? NO_REFERENCES : deepFreeze(m.ownerReferences);
  return Object.freeze(m);
}

/**
 * The stored, frozen metadata of a new version of `md`, in one literal: the collections frozen
 * copies (or shared frozen empties), the version, owner and times the state stamps. A caller's draft is never
 * taken over, and nothing mutable is made only to be frozen. Finalizers come out as a set.
 */
export function storedMetadata(
  md: MutableMetadata | ResourceMetadata,
  version: number,
  generation: number,
  owner: string,
  created: number,
  updated: number,
): ResourceMetadata {
  return Object.freeze({
    namespace: md.namespace,
    type: md.type,
    id: md.id,
    version,
    generation,
    owner,
    phase: md.phase,
    finalizers: frozenSet(md.finalizers),
    labels: frozenEntries(md.labels),
    annotations: frozenEntries(md.annotations),
    created,
    updated,
    ownerReferences:
      md.ownerReferences.length === 0 ? NO_REFERENCES : freezeCopy(md.ownerReferences),
  });
}

function frozenSet(finalizers: readonly string[]): string[] {
  if (finalizers.length === 0) return NO_STRINGS as string[];
  if (Object.isFrozen(finalizers)) return finalizers as string[];
  return Object.freeze(
    finalizers.length === 1 ? [...finalizers] : [...new Set(finalizers)],
  ) as string[];
}

function frozenEntries(record: Readonly<Record<string, string>>): Record<string, string> {
  // Empty first: most records are, and `isFrozen` is a call into the runtime.
  if (isEmpty(record)) return NO_ENTRIES;
  if (Object.isFrozen(record)) return record;
  return Object.freeze(copyEntries(record));
}

/**
 * Draft metadata with its empty finalizers, labels, annotations and owner references replaced,
 * in place, by the shared frozen empties stored resources use. For drafts held by the hundred
 * thousand and never changed in place (the resources a manifest load returns): a collection is
 * changed by assigning a new one. Returns the metadata.
 */
export function shareEmptyCollections(md: MutableMetadata): MutableMetadata {
  if (md.finalizers.length === 0) md.finalizers = NO_STRINGS as string[];
  if (isEmpty(md.labels)) md.labels = NO_ENTRIES;
  if (isEmpty(md.annotations)) md.annotations = NO_ENTRIES;
  if (md.ownerReferences.length === 0) md.ownerReferences = NO_REFERENCES as OwnerReference[];
  return md;
}

/** COSI's metadata equality: timestamps are ignored and finalizers compare as a set. */
export function metadataEqual(a: ResourceMetadata, b: ResourceMetadata): boolean {
  return (
    a.namespace === b.namespace &&
    a.type === b.type &&
    a.id === b.id &&
    a.version === b.version &&
    a.owner === b.owner &&
    a.phase === b.phase &&
    finalizersEqual(a.finalizers, b.finalizers) &&
    deepEqual(a.labels, b.labels) &&
    deepEqual(a.annotations, b.annotations) &&
    deepEqual(a.ownerReferences, b.ownerReferences)
  );
}

function finalizersEqual(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  if (a.length === 0) return true;
  const set = new Set(a);
  return b.every((f) => set.has(f));
}

// How V8 stores the timestamps. A field that has only ever held numbers gets a "double"
// representation: every object keeps a mutable box of its own for it, 16 bytes, two per stored
// resource. Once the field has held anything else, a number in it is an immutable box that objects
// share: a resource's `created` and `updated`, the `created` of all its versions, and the
// timestamps of everything written at the same instant. Building each kind of metadata once, at
// load, without timestamps gives the fields that representation from the start: about 64 bytes
// less per input of the engine benchmark. test/engine/resource/timestamp-sharing.test.ts checks it.
{
  const untimed = { ...createMetadata('', '', ''), created: undefined, updated: undefined };
  const md = untimed as unknown as ResourceMetadata;
  cloneMetadata(md);
  cloneStoredMetadata(md);
  const never = undefined as unknown as number;
  storedMetadata(md, 0, 0, '', never, never);
  withFinalizers(md, []);
}
