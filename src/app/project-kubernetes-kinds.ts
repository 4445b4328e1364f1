import type { KubernetesKind } from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { BuiltinKinds } from '../loaders/kubernetes/builtin-kinds.js';
import type { KubernetesRelease } from '../loaders/kubernetes/kubernetes-release.js';

/**
 * The runtime's `kubernetesKind` of a project: the Kubernetes identity of a type, by the
 * project's definitions, or else by the built-in kinds of its release (an owner reference may name
 * a kind the project neither defines nor watches). cosi's own types have none.
 */
export function projectKubernetesKinds(
  registry: DefinitionRegistry,
  release: KubernetesRelease | undefined,
): (type: string) => KubernetesKind | undefined {
  const builtin = new Map<string, KubernetesKind | undefined>();
  return (type) => {
    const defined = registry.get(type);
    if (defined !== undefined) return defined.kubernetes;
    if (!builtin.has(type))
      builtin.set(type, BuiltinKinds.of(release).findByType(type)?.kubernetes);
    return builtin.get(type);
  };
}
