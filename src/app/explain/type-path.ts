import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { BuiltinKinds } from '../../loaders/kubernetes/builtin-kinds.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../../engine/resource/definition-registry.js';

/** A type and a path of fields in its documents: what `certificate.spec.secretName` names. */
export interface TypePath {
  readonly definition: ResourceDefinition;
  readonly path: readonly string[];
}

/**
 * Splits `TYPE.field.path` where the type ends: the longest dotted start that names a type (by
 * any alias, or a Kubernetes kind's name), so that `vms.example.org.spec.cpus` is the type
 * `VMs.example.org` and the path `spec.cpus`.
 *
 * @example
 * resolveTypePath(registry, 'certificate.spec.secretName').path // ['spec', 'secretName']
 * @throws TypeResolutionError when no start of it is a type, or the longest one is ambiguous.
 */
export function resolveTypePath(
  registry: DefinitionRegistry,
  argument: string,
  builtins?: BuiltinKinds,
): TypePath {
  const segments = argument.split('.');
  for (let end = segments.length; end > 0; end--) {
    const name = segments.slice(0, end).join('.');
    // Built-in kinds are defined when a document uses one: any other is found by its names here.
    const definition = resolveType(registry, name) ?? builtins?.findByName(name);
    if (definition !== undefined) return { definition, path: segments.slice(end) };
  }
  throw new TypeResolutionError('unknown-type', segments[0] ?? argument, []);
}

/** A type by name or alias, or else by the Kubernetes kind it serves; `undefined`: none. */
function resolveType(registry: DefinitionRegistry, name: string): ResourceDefinition | undefined {
  try {
    return registry.resolve(name);
  } catch (error) {
    if (!(error instanceof TypeResolutionError) || error.code !== 'unknown-type') throw error;
  }
  const lower = name.toLowerCase();
  const kinds = registry.all().filter((d) => d.kubernetes?.kind.toLowerCase() === lower);
  // A kind served in several versions: the storage version's type is the one with aliases.
  return kinds.find((d) => d.aliases.length > 0) ?? kinds[0];
}
