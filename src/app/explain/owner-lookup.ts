/**
 * Where the owner an owner reference names is, among a run's resources: in the dependent's
 * namespace, or, for a cluster-scoped kind, where cosi keeps that kind's objects (its default
 * namespace), whichever namespace the dependent is in.
 */
import type { ClusterNamespaceOf } from '../../engine/resource/owner-scope.js';
import type { Resource } from '../../engine/resource/resource.js';

/**
 * The namespace each cluster-scoped type's objects are kept in, as `resources` have it (`''` for
 * a cluster-scoped type without any, so that no reference to it names a namespaced object);
 * `undefined` for a namespaced type. Each type is looked up once.
 */
export function clusterNamespacesOf(
  resources: readonly Resource[],
  isClusterScoped: (type: string) => boolean,
): ClusterNamespaceOf {
  const kept = new Map<string, string | undefined>();
  return (type) => {
    if (kept.has(type)) return kept.get(type);
    const namespace = isClusterScoped(type)
      ? (resources.find((r) => r.metadata.type === type)?.metadata.namespace ?? '')
      : undefined;
    kept.set(type, namespace);
    return namespace;
  };
}
