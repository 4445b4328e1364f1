import { ownerConflict, pendingFinalizers, phaseConflict, versionConflict } from '../errors.js';
import { toPointer } from '../resource/pointer.js';
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
