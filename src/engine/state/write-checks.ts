import { ownerConflict, pendingFinalizers, phaseConflict, versionConflict } from '../errors.js';
import { ALL_NAMESPACES, formatPointer, toPointer, type Pointer } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import type { OwnerOptions, UpdateOptions } from './state.js';

// The checks a core makes of a write against what it has stored, the same in every core: the
// errors (and their codes) a caller sees do not depend on the backend.

/** `current`, when the writer (`options.owner`, `''` for a user) owns it. */
export function checkOwner(current: Resource, options: OwnerOptions): Resource {
  const owner = options.owner ?? '';
  if (current.metadata.owner !== owner) {
    throw ownerConflict(toPointer(current.metadata), owner, current.metadata.owner);
  }
  return current;
}

/** The stored phase must be the expected one (`running` unless the options say otherwise). */
export function checkPhase(current: Resource, options: UpdateOptions): void {
  const expected = options.expectedPhase ?? 'running';
  if (expected !== 'any' && current.metadata.phase !== expected) {
    throw phaseConflict(toPointer(current.metadata), expected, current.metadata.phase);
  }
}

/** An update of `current` from a resource at `version`: owner, then version, then phase. */
export function checkUpdate(current: Resource, version: number, options: UpdateOptions): void {
  checkOwner(current, options);
  const md = current.metadata;
  if (version !== md.version) throw versionConflict(toPointer(md), version, md.version);
  checkPhase(current, options);
}

/** A destroy of `current`: the writer owns it, and no finalizer holds it. */
export function checkDestroy(current: Resource, options: OwnerOptions): void {
  checkOwner(current, options);
  const md = current.metadata;
  if (md.finalizers.length > 0) throw pendingFinalizers(toPointer(md), md.finalizers);
}

/**
 * A new resource's namespace must be one: {@link ALL_NAMESPACES} stands for every namespace of a
 * type (a list, a watch, an input), and a resource stored in it could never be read back by name
 * nor told from the wildcard, as the API server refuses a namespace that is not a DNS label.
 */
export function checkCreatedNamespace(p: Pointer): void {
  if (p.namespace === ALL_NAMESPACES) {
    throw new TypeError(
      `${formatPointer(p)}: a resource cannot be in namespace ${JSON.stringify(ALL_NAMESPACES)}, which stands for every namespace (ALL_NAMESPACES) in a list, a watch or an input`,
    );
  }
}
