import {
  cloneMetadata,
  cloneStoredMetadata,
  createMetadata,
  freezeMetadata,
  holdsFrozenCollection,
  metadataEqual,
  storedMetadata,
  type MetadataInit,
  type MutableMetadata,
  type ResourceMetadata,
} from './metadata.js';
import { deepClone, deepEqual, deepFreeze, freezeCopy, type DeepReadonly } from './plain-data.js';
import { formatPointer } from './pointer.js';

/**
 * A resource as read from the state: deeply frozen, safe to share, never copied on read.
 * To change one, make a draft with {@link toDraft} (or let `modify` do it).
 */
export interface Resource<S = unknown> {
  readonly metadata: ResourceMetadata;
  readonly spec: DeepReadonly<S>;
}

/** A writable copy of a resource, what writers fill in before the state stores (and freezes) it. */
export interface Draft<S = unknown> {
  metadata: MutableMetadata;
  spec: S;
}

declare const specOmitted: unique symbol;

/**
 * A draft made without its spec (`create(id)` of a type whose spec has required fields and no
 * `defaultSpec`): its spec is `{}`, whatever `S` says. Good as the `empty` of a `modify`, whose
 * updater fills it in; `create` refuses it at compile time, as a stored `{}` would read as `S`.
 * The refusal quotes the text below: at most 78 characters, so that `cosi check --typecheck`,
 * which cuts a quoted value longer than 80, shows it whole.
 */
export type SpeclessDraft<S> = Draft<S> & {
  readonly [specOmitted]?: 'left without a spec: give create() one, use modify(), or add a defaultSpec';
};

/** What `create` stores: a draft or resource with its spec (not a {@link SpeclessDraft}). */
export type Creatable<S> = (Draft<S> | Resource<S>) & { readonly [specOmitted]?: never };

/** Anything the state can store: a draft or a stored resource. */
export type AnyResource = Resource | Draft;

/** Makes a new, never stored resource (version 0, phase running, no owner). */
export function newResource<S>(
  pointer: { namespace: string; type: string; id: string },
  spec: S,
  init?: MetadataInit,
): Draft<S> {
  return { metadata: createMetadata(pointer.namespace, pointer.type, pointer.id, init), spec };
}

/** A mutable deep copy of a resource. */
export function toDraft<S>(resource: Resource<S> | Draft<S>): Draft<S> {
  // Apart by allocation site (see cloneStoredMetadata): a draft of a new resource is nearly
  // always stored, one of a stored resource often dropped.
  if (resource.metadata.version > 0) return storedDraft(resource);
  return {
    metadata: cloneMetadata(resource.metadata),
    spec: deepClone(resource.spec) as S,
  };
}

/**
 * The draft `modify` hands its updater when the resource does not exist yet: `empty`'s own
 * metadata (COSI hands its updaters `empty` itself, and the state's docs say `fn` fills it) with a
 * copy of its spec, which callers often build from a stored resource's frozen data. Metadata that
 * is frozen anywhere (a stored resource's, or built from one) is copied as well.
 *
 * Cloning the whole of `empty`, as it was, made a second twelve-field metadata and four empty
 * collections per created output, and the metadata was the one kept: its allocation site then
 * stayed long-lived. The state keeps none of the caller's objects: see {@link storedFromDraft}.
 */
export function draftOfEmpty<S>(empty: Draft<S>): Draft<S> {
  const md = empty.metadata;
  if (Object.isFrozen(md) || holdsFrozenCollection(md)) return toDraft(empty);
  return { metadata: md, spec: deepClone(empty.spec) };
}

/**
 * The stored version of a draft from {@link draftOfEmpty}: its spec (the state's own copy) frozen
 * in place, its metadata built final by {@link storedMetadata}, so the caller's metadata is
 * neither stamped nor frozen.
 */
export function storedFromDraft<S>(
  draft: Draft<S>,
  version: number,
  generation: number,
  owner: string,
  created: number,
  updated: number,
): Resource<S> {
  return stored(
    draft.metadata,
    deepFreeze(draft.spec),
    version,
    generation,
    owner,
    created,
    updated,
  );
}

function storedDraft<S>(resource: Resource<S> | Draft<S>): Draft<S> {
  return {
    metadata: cloneStoredMetadata(resource.metadata),
    spec: deepClone(resource.spec) as S,
  };
}

/**
 * The stored, frozen copy of a caller's resource as a new version, made in one pass: the spec a
 * frozen copy (a frozen spec is shared), the metadata built final (see {@link storedMetadata}).
 * The caller keeps its resource; nothing mutable is made only to be frozen.
 */
export function storedCopy<S>(
  resource: Resource<S> | Draft<S>,
  version: number,
  generation: number,
  owner: string,
  created: number,
  updated: number,
): Resource<S> {
  return stored<S>(
    resource.metadata,
    freezeCopy(resource.spec as S),
    version,
    generation,
    owner,
    created,
    updated,
  );
}

/** A stored resource: `spec` already frozen, the metadata of `md` built final. */
function stored<S>(
  md: Draft['metadata'] | Resource['metadata'],
  spec: S,
  version: number,
  generation: number,
  owner: string,
  created: number,
  updated: number,
): Resource<S> {
  return Object.freeze({
    metadata: storedMetadata(md, version, generation, owner, created, updated),
    spec: spec as DeepReadonly<S>,
  });
}

/** Freezes a resource in place, all the way down; returns it typed as stored. */
export function freezeResource<S>(resource: Resource<S> | Draft<S>): Resource<S> {
  if (Object.isFrozen(resource)) return resource as Resource<S>;
  freezeMetadata(resource.metadata);
  deepFreeze(resource.spec);
  return Object.freeze(resource) as Resource<S>;
}

/** COSI's resource equality: metadata equality (no timestamps) and deep spec equality. */
export function resourceEqual(a: AnyResource, b: AnyResource): boolean {
  return metadataEqual(a.metadata, b.metadata) && deepEqual(a.spec, b.spec);
}

/** `Type(namespace/id)`. */
export function formatResource(r: AnyResource): string {
  return formatPointer(r.metadata);
}

/** Tearing down with no finalizers left: safe to destroy. */
export const isDestroyReady = (resource: AnyResource): boolean =>
  resource.metadata.phase === 'tearingDown' && resource.metadata.finalizers.length === 0;
