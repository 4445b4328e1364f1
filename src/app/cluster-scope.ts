import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { BuiltinKinds } from '../loaders/kubernetes/builtin-kinds.js';
import type { KubernetesRelease } from '../loaders/kubernetes/kubernetes-release.js';

/**
 * The runtime's `clusterScoped` of a project: whether a type is a Kubernetes kind that is not
 * namespaced, by the project's definitions, or else by the built-in kinds of its release (an
 * owner reference may name a kind the project neither defines nor watches). cosi's own types are
 * namespaced.
 */
export function clusterScopeOf(
  registry: DefinitionRegistry,
  release: KubernetesRelease | undefined,
): (type: string) => boolean {
  const builtin = new Map<string, boolean>();
  return (type) => {
    const defined = registry.get(type);
    if (defined !== undefined) return defined.kubernetes?.namespaced === false;
    let scoped = builtin.get(type);
    if (scoped === undefined) {
      scoped = BuiltinKinds.of(release).findByType(type)?.kubernetes?.namespaced === false;
      builtin.set(type, scoped);
    }
    return scoped;
  };
}
