import type { ResourceMetadata } from '../resource/metadata.js';
import type { Resource } from '../resource/resource.js';

/**
 * Anything with resource metadata: a stored resource, a draft, or the metadata-only projection a
 * `watchesMetadata` watch delivers. Predicates that must handle every watched type take this.
 */
export interface ObjectLike {
  readonly metadata: ResourceMetadata;
}

/**
 * controller-runtime's `PartialObjectMetadata`: a resource without its spec, what metadata-only
 * watches hand to their predicates and handlers.
 */
export interface PartialObjectMetadata {
  readonly metadata: ResourceMetadata;
  readonly spec?: undefined;
}

/** A resource appeared (or existed when the controller started). */
export interface CreateEvent<O extends ObjectLike = ObjectLike> {
  readonly object: O;
  /**
   * The resource existed when the controller started: this is the replay of the initial list,
   * not a new resource (controller-runtime's `IsInInitialList`). The engine always sets it.
   */
  readonly isInInitialList?: boolean;
}

/** A resource changed: every write, including phase and finalizer changes. */
export interface UpdateEvent<O extends ObjectLike = ObjectLike> {
  readonly objectOld: O;
  readonly objectNew: O;
}

/** A resource was destroyed; `object` is its last stored state. */
export interface DeleteEvent<O extends ObjectLike = ObjectLike> {
  readonly object: O;
}

/** An event from outside the state, such as a raw source's. */
export interface GenericEvent<O extends ObjectLike = ObjectLike> {
  readonly object: O;
}

/**
 * An object as a cluster shows one of a kind the API server keeps no generation for (ConfigMap,
 * Secret, Service, ...): `metadata.generation` 0, Go's zero value (the state counts one for every
 * resource).
 */
export function withoutGeneration<O extends ObjectLike>(object: O): O {
  return Object.freeze({
    ...object,
    metadata: Object.freeze({ ...object.metadata, generation: 0 }),
  });
}

/** The metadata-only view of a resource: the same (frozen) metadata, no spec. */
export function toPartialObjectMetadata(resource: Resource): PartialObjectMetadata {
  return Object.freeze({ metadata: resource.metadata });
}
