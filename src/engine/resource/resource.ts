import {
  cloneMetadata,
  cloneStoredMetadata,
  createMetadata,
  freezeMetadata,
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
  owner: string,
  created: number,
  updated: number,
): Resource<S> {
  return Object.freeze({
    metadata: storedMetadata(resource.metadata, version, owner, created, updated),
    spec: freezeCopy(resource.spec) as DeepReadonly<S>,
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
