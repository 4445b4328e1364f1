import pluralize from 'pluralize';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { BuiltinKinds } from '../../loaders/kubernetes/builtin-kinds.js';
import { splitApiVersion } from '../../loaders/kubernetes/kubernetes-shape.js';
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
    const definition = resolveType(registry, name);
    if (definition !== undefined) return { definition, path: segments.slice(end) };
  }
  // Built-in kinds are defined when a document uses one: any other is found by its kind here.
  const builtin = builtins === undefined ? undefined : findBuiltin(builtins, segments[0] ?? '');
  if (builtin !== undefined) return { definition: builtin, path: segments.slice(1) };
  throw new TypeResolutionError('unknown-type', segments[0] ?? argument, []);
}

/** A built-in kind by its name or plural, any case (`deployment`, `Deployments`), preferred version. */
function findBuiltin(builtins: BuiltinKinds, name: string): ResourceDefinition | undefined {
  const lower = name.toLowerCase();
  const kind = builtins
    .kinds()
    .find((k) => k.toLowerCase() === lower || pluralize.plural(k).toLowerCase() === lower);
  const apiVersion = kind === undefined ? undefined : builtins.apiVersionsOf(kind)[0];
  if (kind === undefined || apiVersion === undefined) return undefined;
  const { group } = splitApiVersion(apiVersion);
  const version = builtins.versionsOf(group, kind)[0];
  return version === undefined ? undefined : builtins.find(group, version, kind);
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
