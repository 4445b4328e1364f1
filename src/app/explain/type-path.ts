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

/** Why `--api-version` names no version of the type: said as a usage error. */
export class ApiVersionError extends Error {
  constructor(message: string) {
    super(`--api-version: ${message}`);
    this.name = 'ApiVersionError';
  }
}

/**
 * Splits `TYPE.field.path` where the type ends: the longest dotted start that names a type (by
 * any alias, or a Kubernetes kind's name), so that `vms.example.org.spec.cpus` is the type
 * `VMs.example.org` and the path `spec.cpus`. With `apiVersion` (kubectl's `--api-version
 * GROUP/VERSION`), the kind named is taken in that group and version instead of its preferred
 * one, and a name several groups' kinds share is the one of that group.
 *
 * @example
 * resolveTypePath(registry, 'certificate.spec.secretName').path // ['spec', 'secretName']
 * resolveTypePath(registry, 'hpa.spec', builtins, 'autoscaling/v1').definition.kubernetes?.apiVersion // 'autoscaling/v1'
 * @throws TypeResolutionError when no start of it is a type, or the longest one is ambiguous.
 * @throws ApiVersionError when the kind is not served at `apiVersion`, or the type is not a kind.
 */
export function resolveTypePath(
  registry: DefinitionRegistry,
  argument: string,
  builtins?: BuiltinKinds,
  apiVersion?: string,
): TypePath {
  // kubectl trims one trailing `.`: `deployment.spec.` is `deployment.spec`.
  const segments = (argument.endsWith('.') ? argument.slice(0, -1) : argument).split('.');
  const group = apiVersion === undefined ? undefined : parseApiVersion(apiVersion).group;
  for (let end = segments.length; end > 0; end--) {
    const name = segments.slice(0, end).join('.');
    // Built-in kinds are defined when a document uses one: any other is found by its names here.
    const definition = resolveType(registry, name, group) ?? builtins?.findByName(name);
    if (definition === undefined) continue;
    return {
      definition:
        apiVersion === undefined
          ? definition
          : atApiVersion(registry, definition, apiVersion, builtins),
      path: segments.slice(end),
    };
  }
  throw new TypeResolutionError('unknown-type', segments[0] ?? argument, []);
}

/** `GROUP/VERSION`, or `VERSION` for the core group, as kubectl's `schema.ParseGroupVersion`. */
function parseApiVersion(apiVersion: string): { group: string; version: string } {
  if (!/^(?:[^/\s]+\/)?[^/\s]+$/.test(apiVersion)) {
    throw new ApiVersionError(
      `expected GROUP/VERSION (apps/v1), or VERSION for the core group (v1), got ${JSON.stringify(apiVersion)}`,
    );
  }
  return splitApiVersion(apiVersion);
}

/**
 * The same kind served at `apiVersion`, as kubectl swaps the group and version of the resource
 * it explains: a definition that was read (a CRD's version) or a built-in kind.
 */
function atApiVersion(
  registry: DefinitionRegistry,
  definition: ResourceDefinition,
  apiVersion: string,
  builtins: BuiltinKinds | undefined,
): ResourceDefinition {
  const kind = definition.kubernetes?.kind;
  if (kind === undefined) {
    throw new ApiVersionError(
      `${definition.type} is a cosi type, not a Kubernetes kind: it has no API versions`,
    );
  }
  const { group, version } = splitApiVersion(apiVersion);
  const read = registry
    .all()
    .find((d) => d.kubernetes?.kind === kind && d.kubernetes.apiVersion === apiVersion);
  const found = read ?? builtins?.find(group, version, kind);
  if (found !== undefined) return found;
  const served = new Set([
    ...registry
      .all()
      .flatMap((d) => (d.kubernetes?.kind === kind ? [d.kubernetes.apiVersion] : [])),
    ...(builtins?.apiVersionsOf(kind) ?? []),
  ]);
  throw new ApiVersionError(
    `no ${kind} is served at ${apiVersion}; ${kind} is served at ${[...served].sort().join(', ')}`,
  );
}

/**
 * A type by name or alias, or else by the Kubernetes kind it serves; `undefined`: none. A name
 * several types share is the one of `group`'s kind, when `group` is given and only one kind of
 * them is in it.
 */
function resolveType(
  registry: DefinitionRegistry,
  name: string,
  group?: string,
): ResourceDefinition | undefined {
  try {
    return registry.resolve(name);
  } catch (error) {
    if (!(error instanceof TypeResolutionError)) throw error;
    if (error.code === 'ambiguous-type') {
      const inGroup = group === undefined ? [] : inGroupOf(registry, error.candidates, group);
      if (inGroup.length === 1) return inGroup[0];
      throw error;
    }
  }
  const lower = name.toLowerCase();
  const kinds = registry.all().filter((d) => d.kubernetes?.kind.toLowerCase() === lower);
  // A kind served in several versions: the storage version's type is the one with aliases.
  return kinds.find((d) => d.aliases.length > 0) ?? kinds[0];
}

/** The candidates that are Kubernetes kinds of `group`, one definition per kind. */
function inGroupOf(
  registry: DefinitionRegistry,
  candidates: readonly string[],
  group: string,
): ResourceDefinition[] {
  const byKind = new Map<string, ResourceDefinition>();
  for (const type of candidates) {
    const definition = registry.get(type);
    const kubernetes = definition?.kubernetes;
    if (kubernetes === undefined || splitApiVersion(kubernetes.apiVersion).group !== group)
      continue;
    if (!byKind.has(kubernetes.kind)) byKind.set(kubernetes.kind, definition as ResourceDefinition);
  }
  return [...byKind.values()];
}
