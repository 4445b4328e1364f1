/**
 * The scope of an owner reference's owner. A reference names its owner by type and id, no
 * namespace, as in Kubernetes: the owner is in the dependent's namespace, unless its kind is
 * cluster-scoped, when it is in no namespace (cosi keeps such objects in their type's default
 * namespace, `default`), whichever namespace the dependent is in. A cluster-scoped dependent
 * may have only cluster-scoped owners.
 */
import type { KubernetesKind } from './definition.js';
import type { OwnerReference } from './metadata.js';
import type { Pointer } from './pointer.js';

/**
 * What knows whether a type is cluster-scoped: controller-runtime's scheme. A runtime and a
 * controller's client (a reconciler's `ctx.client`) are one; a type it does not know, or every
 * type without it, is namespaced.
 */
export interface OwnerScheme {
  kubernetesKind?(type: string): KubernetesKind | undefined;
}

/** Whether `scheme` says the type is a cluster-scoped kind. */
export function isClusterScoped(scheme: OwnerScheme | undefined, type: string): boolean {
  return scheme?.kubernetesKind?.(type)?.namespaced === false;
}

/**
 * Where a cluster-scoped type's objects are kept (their namespace in cosi's state), or
 * `undefined` for a namespaced type.
 */
export type ClusterNamespaceOf = (type: string) => string | undefined;

/**
 * The owner `ref` (a reference of `dependent`) names: in the dependent's namespace, or, for a
 * cluster-scoped owner type, where that type is kept. `undefined` when the reference cannot name
 * anything: a cluster-scoped dependent's reference to a namespaced type, which Kubernetes' garbage
 * collector takes as unresolvable.
 */
export function ownerPointerOf(
  ref: Pick<OwnerReference, 'type' | 'id'>,
  dependent: Pick<Pointer, 'namespace' | 'type'>,
  clusterNamespace: ClusterNamespaceOf,
): Pointer | undefined {
  const kept = clusterNamespace(ref.type);
  if (kept !== undefined) return { namespace: kept, type: ref.type, id: ref.id };
  if (clusterNamespace(dependent.type) !== undefined) return undefined;
  return { namespace: dependent.namespace, type: ref.type, id: ref.id };
}
