import { formatPointer, toPointer, type Pointer } from '../engine/resource/pointer.js';
import { isConflict, SkipError } from '../engine/errors.js';
import { messageOfThrown } from '../engine/thrown-value.js';

/**
 * The error to throw from a generic controller's function to leave this item alone for now: no
 * failure, no retry until the next event. COSI's `SkipReconcileTag`.
 *
 * @example
 * transform: (ctx, vm, out) => {
 *   if (!vm.spec.image) throw skip('no image yet');
 *   out.spec.bridge = `br-${vm.spec.image}`;
 * }
 */
export function skip(reason = 'skipped'): SkipError {
  return new SkipError(reason);
}

/**
 * An error with what was being done in front of its message; the original is the cause. It
 * keeps the resource it was done to (`resource`): a whole-world controller's failed pass is
 * logged naming it (see `failedResources`).
 */
export function annotate(what: string, pointer: Pointer, error: unknown): Error {
  const message = messageOfThrown(error);
  const annotated = new Error(`${what} ${formatPointer(pointer)}: ${message}`, { cause: error });
  return Object.assign(annotated, { resource: toPointer(pointer) });
}

/** A conflict on exactly this resource: it is someone else's, or it is tearing down. */
export function isConflictOn(error: unknown, pointer: Pointer): boolean {
  return (
    isConflict(error) &&
    error.pointer.namespace === pointer.namespace &&
    error.pointer.type === pointer.type &&
    error.pointer.id === pointer.id
  );
}
