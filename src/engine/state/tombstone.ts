import { createMetadata } from '../resource/metadata.js';
import type { Pointer } from '../resource/pointer.js';
import { freezeResource, type AnyResource, type Resource } from '../resource/resource.js';

/**
 * A stand-in for a resource that does not exist: metadata only (version 0), spec `null`.
 * `watch` on a missing resource starts with a `destroyed` event carrying one.
 */
export function createTombstone(pointer: Pointer): Resource {
  return freezeResource({
    metadata: createMetadata(pointer.namespace, pointer.type, pointer.id),
    spec: null,
  });
}

/** Stored resources always have a version of 1 or more; a tombstone has 0. */
export const isTombstone = (resource: AnyResource): boolean => resource.metadata.version === 0;
