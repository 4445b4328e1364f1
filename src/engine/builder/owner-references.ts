import type { OwnerReference } from '../resource/metadata.js';
import { formatPointer, type Pointer } from '../resource/pointer.js';
import type { Draft } from '../resource/resource.js';
import type { ObjectLike } from './events.js';

/** Why an owner reference was refused. */
export type OwnerReferenceErrorCode = 'already-owned' | 'cross-namespace';

/** An owner reference that would break the rules; the object is left unchanged. */
export class OwnerReferenceError extends Error {
  constructor(
    readonly code: OwnerReferenceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OwnerReferenceError';
  }
}

/** What an owner has to be: something with an address. */
export interface OwnerLike {
  readonly metadata: Pointer;
}

/** A reference names an object by type and id; the namespace is the dependent's own. */
const refersTo = (ref: OwnerReference, owner: OwnerLike, object: ObjectLike): boolean =>
  ref.type === owner.metadata.type &&
  ref.id === owner.metadata.id &&
  owner.metadata.namespace === object.metadata.namespace;

function checkNamespace(owner: OwnerLike, object: Draft): void {
  if (owner.metadata.namespace !== object.metadata.namespace) {
    throw new OwnerReferenceError(
      'cross-namespace',
      `cross-namespace owner references are disallowed: ${formatPointer(owner.metadata)} cannot own ${formatPointer(object.metadata)}`,
    );
  }
}

/** Replaces the reference to the same object, or appends one. */
function upsert(object: Draft, ref: OwnerReference): void {
  const refs = object.metadata.ownerReferences;
  const index = refs.findIndex((r) => r.type === ref.type && r.id === ref.id);
  if (index < 0) refs.push(ref);
  else refs[index] = ref;
}

/** The object's controller reference: the first with `controller: true`. */
export function getControllerOf(object: ObjectLike): OwnerReference | undefined {
  return object.metadata.ownerReferences.find((r) => r.controller === true);
}

/** Options of {@link setControllerReference}. */
export interface ControllerReferenceOptions {
  /**
   * Mark the reference `blockOwnerDeletion`: with a garbage collector running, the owner is not
   * destroyed before this object is (foreground deletion). Off by default, unlike
   * controller-runtime: without a garbage collector the flag would mean nothing, and with one it
   * changes when owners may go, so a project asks for it.
   */
  readonly blockOwnerDeletion?: boolean;
}

/**
 * Makes `owner` the managing controller of `object` (a draft): the reference `owns` follows by
 * default. Setting it again is a no-op.
 *
 * @throws OwnerReferenceError `cross-namespace` when they are in different namespaces,
 * `already-owned` when another object already controls `object`.
 * @example
 * await ctx.client.modify(Disk.create(`${vm.metadata.id}-root`), (disk) => {
 *   setControllerReference(vm, disk);
 * });
 */
export function setControllerReference(
  owner: OwnerLike,
  object: Draft,
  options: ControllerReferenceOptions = {},
): void {
  checkNamespace(owner, object);
  const existing = getControllerOf(object);
  if (existing && !refersTo(existing, owner, object)) {
    throw new OwnerReferenceError(
      'already-owned',
      `${formatPointer(object.metadata)} is already controlled by ${existing.type} ${JSON.stringify(existing.id)}`,
    );
  }
  upsert(object, {
    type: owner.metadata.type,
    id: owner.metadata.id,
    controller: true,
    ...(options.blockOwnerDeletion ? { blockOwnerDeletion: true } : {}),
  });
}

/**
 * Adds `owner` as a plain (non-controller) owner of `object`. A reference to the same owner is
 * replaced, so this also demotes a controller reference, as in controller-runtime.
 *
 * @throws OwnerReferenceError `cross-namespace` when they are in different namespaces.
 */
export function setOwnerReference(owner: OwnerLike, object: Draft): void {
  checkNamespace(owner, object);
  upsert(object, { type: owner.metadata.type, id: owner.metadata.id });
}

/** Removes the reference to `owner`; false when there was none. */
export function removeOwnerReference(owner: OwnerLike, object: Draft): boolean {
  const refs = object.metadata.ownerReferences;
  const index = refs.findIndex((r) => refersTo(r, owner, object));
  if (index < 0) return false;
  refs.splice(index, 1);
  return true;
}

/** Removes `owner`'s reference if it is the controller reference; false otherwise. */
export function removeControllerReference(owner: OwnerLike, object: Draft): boolean {
  const existing = getControllerOf(object);
  if (!existing || !refersTo(existing, owner, object)) return false;
  return removeOwnerReference(owner, object);
}

/** Whether `object` references `owner` (as controller or not). */
export function hasOwnerReference(owner: OwnerLike, object: ObjectLike): boolean {
  return object.metadata.ownerReferences.some((r) => refersTo(r, owner, object));
}

/** Whether `object` has a controller reference (to anything). */
export function hasControllerReference(object: ObjectLike): boolean {
  return getControllerOf(object) !== undefined;
}
