import type { OwnerReference } from '../resource/metadata.js';
import { isClusterScoped, type OwnerScheme } from '../resource/owner-scope.js';
import { formatPointer, type Pointer } from '../resource/pointer.js';
import type { Draft } from '../resource/resource.js';
import type { ObjectLike } from './events.js';

/**
 * Why an owner reference was refused: another controller already controls the object; a
 * namespaced owner in another namespace than the object; a namespaced owner of a cluster-scoped
 * object.
 */
export type OwnerReferenceErrorCode = 'already-owned' | 'cross-namespace' | 'namespaced-owner';

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

/** Options of every helper here: what tells which types are cluster-scoped. */
export interface OwnerScopeOptions {
  /**
   * controller-runtime's scheme: what knows each type's scope, such as a reconciler's
   * `ctx.client` or the runtime. With it, a cluster-scoped owner (a Namespace, a ClusterIssuer)
   * may own an object in any namespace, and a namespaced owner of a cluster-scoped object is
   * refused here rather than at the write. Without it, every type is namespaced: owner and object
   * must share a namespace.
   */
  readonly scheme?: OwnerScheme;
}

/**
 * A reference names an object by type and id: one in the dependent's namespace, or, when the
 * owner's kind is cluster-scoped, the one object of that type and id, in no namespace.
 */
const refersTo = (
  ref: OwnerReference,
  owner: OwnerLike,
  object: ObjectLike,
  scheme: OwnerScheme | undefined,
): boolean =>
  ref.type === owner.metadata.type &&
  ref.id === owner.metadata.id &&
  (owner.metadata.namespace === object.metadata.namespace ||
    isClusterScoped(scheme, owner.metadata.type));

/** controller-runtime's `validateOwner`, with the scope `scheme` tells. */
function checkScope(owner: OwnerLike, object: Draft, scheme: OwnerScheme | undefined): void {
  if (isClusterScoped(scheme, owner.metadata.type)) return;
  if (isClusterScoped(scheme, object.metadata.type)) {
    throw new OwnerReferenceError(
      'namespaced-owner',
      `cluster-scoped resource must not have a namespace-scoped owner: ${formatPointer(owner.metadata)} cannot own ${formatPointer(object.metadata)}`,
    );
  }
  if (owner.metadata.namespace !== object.metadata.namespace) {
    const hint =
      scheme === undefined
        ? ` (a cluster-scoped owner may own objects in any namespace: pass { scheme: ctx.client } so that its scope is known)`
        : '';
    throw new OwnerReferenceError(
      'cross-namespace',
      `cross-namespace owner references are disallowed: ${formatPointer(owner.metadata)} cannot own ${formatPointer(object.metadata)}${hint}`,
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
export interface ControllerReferenceOptions extends OwnerScopeOptions {
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
 * @throws OwnerReferenceError `cross-namespace` when a namespaced owner is in another namespace,
 * `namespaced-owner` when `object` is cluster-scoped and `owner` is not (both need
 * `options.scheme` to know), `already-owned` when another object already controls `object`.
 * @example
 * await ctx.client.modify(Disk.create(`${vm.metadata.id}-root`), (disk) => {
 *   setControllerReference(vm, disk);
 * });
 * @example
 * // A cluster-scoped owner of an object in another namespace: the scheme tells its scope.
 * await ctx.client.modify(ConfigMap.create('team', undefined, { namespace: ns.metadata.id }), (cm) => {
 *   setControllerReference(ns, cm, { scheme: ctx.client });
 * });
 */
export function setControllerReference(
  owner: OwnerLike,
  object: Draft,
  options: ControllerReferenceOptions = {},
): void {
  checkScope(owner, object, options.scheme);
  const existing = getControllerOf(object);
  if (existing && !refersTo(existing, owner, object, options.scheme)) {
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
 * @throws OwnerReferenceError `cross-namespace` when a namespaced owner is in another namespace,
 * `namespaced-owner` when `object` is cluster-scoped and `owner` is not (as
 * {@link setControllerReference}).
 */
export function setOwnerReference(
  owner: OwnerLike,
  object: Draft,
  options: OwnerScopeOptions = {},
): void {
  checkScope(owner, object, options.scheme);
  upsert(object, { type: owner.metadata.type, id: owner.metadata.id });
}

/** Removes the reference to `owner`; false when there was none. */
export function removeOwnerReference(
  owner: OwnerLike,
  object: Draft,
  options: OwnerScopeOptions = {},
): boolean {
  const refs = object.metadata.ownerReferences;
  const index = refs.findIndex((r) => refersTo(r, owner, object, options.scheme));
  if (index < 0) return false;
  refs.splice(index, 1);
  return true;
}

/** Removes `owner`'s reference if it is the controller reference; false otherwise. */
export function removeControllerReference(
  owner: OwnerLike,
  object: Draft,
  options: OwnerScopeOptions = {},
): boolean {
  const existing = getControllerOf(object);
  if (!existing || !refersTo(existing, owner, object, options.scheme)) return false;
  return removeOwnerReference(owner, object, options);
}

/** Whether `object` references `owner` (as controller or not). */
export function hasOwnerReference(
  owner: OwnerLike,
  object: ObjectLike,
  options: OwnerScopeOptions = {},
): boolean {
  return object.metadata.ownerReferences.some((r) => refersTo(r, owner, object, options.scheme));
}

/** Whether `object` has a controller reference (to anything). */
export function hasControllerReference(object: ObjectLike): boolean {
  return getControllerOf(object) !== undefined;
}
