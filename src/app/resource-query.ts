import { compareStrings } from '../engine/compare-strings.js';
import {
  RESOURCE_DEFINITION_TYPE,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../engine/resource/definition-registry.js';
import type { Resource } from '../engine/resource/resource.js';
import type { StateSnapshot } from '../engine/state/state-snapshot.js';
import { didYouMean, didYouMeanType } from '../loaders/did-you-mean.js';
import { rgdTypeNote } from '../loaders/kro/rgd-type-name.js';
import type { KubernetesKindOf } from '../loaders/kubernetes/printed-owner-references.js';
import { projectKubernetesKinds } from './project-kubernetes-kinds.js';

/** Resources of one type, with its definition (if it has one). */
export interface ResourceGroup {
  readonly type: string;
  readonly definition: ResourceDefinition | undefined;
  readonly resources: readonly Resource[];
  /**
   * The Kubernetes kinds of the owners the resources' references name, by the project's types
   * and the built-in kinds: a Kubernetes object prints them as kubectl does (`toDocument`).
   */
  readonly ownerKinds?: KubernetesKindOf;
}

/** A type name a query could not resolve, said for a user (the CLI makes it a usage error). */
export class ResourceQueryError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ResourceQueryError';
  }
}

export interface ResourceQuery {
  /** A type or alias, or several; every type when omitted. */
  readonly type?: string | readonly string[];
  readonly id?: string;
  /** Several ids (`get vm web-1 web-2`): the resources of any of them. */
  readonly ids?: readonly string[];
  readonly namespace?: string;
  /** `-l`: only resources whose labels match (a parsed label selector). */
  readonly selector?: (labels: Readonly<Record<string, string>>) => boolean;
  /** `--field-selector`: only resources whose fields match, given with their type's definition. */
  readonly fields?: (resource: Resource, definition: ResourceDefinition | undefined) => boolean;
}

/** What a query reads: the state at one moment, and the project's types that name it. */
export interface QueriedState {
  readonly project: { readonly registry: DefinitionRegistry };
  readonly snapshot: StateSnapshot;
  /**
   * Kubernetes' own kinds by the names kubectl takes (`sa`, `clusterroles`): one that nothing
   * here uses is registered nowhere, and asking for it finds no resources, as kubectl's does.
   */
  readonly builtins?: {
    findByName(name: string): ResourceDefinition | undefined;
    /** Every kind, for the nearest to a misspelled name. */
    kinds(): readonly string[];
  };
}

/**
 * The resources of a snapshot, grouped by type (sorted by type, then namespace and id),
 * optionally some types, one namespace or one resource. Definitions are listed only when asked
 * for by type. A type is named by any alias of its definition or, when controllers write a type
 * that has none, by its exact name (any case).
 *
 * @throws ResourceQueryError for an unknown or ambiguous type.
 */
export function selectResources(from: QueriedState, query: ResourceQuery): ResourceGroup[] {
  const names =
    query.type === undefined ? [] : typeof query.type === 'string' ? [query.type] : query.type;
  const only =
    names.length === 0 ? undefined : new Set(names.map((name) => resolveType(from, name)));
  const byType = new Map<string, Resource[]>();
  const ids = query.ids === undefined ? undefined : new Set(query.ids);
  const sources = [
    ...(only?.has(RESOURCE_DEFINITION_TYPE) ? [from.snapshot.definitions] : []),
    ...(only === undefined || [...only].some((t) => t !== RESOURCE_DEFINITION_TYPE)
      ? [from.snapshot.resources]
      : []),
  ];
  // A cluster-scoped kind's objects (kept in `default`) are in no namespace: kubectl lists them
  // whatever `-n` says.
  const scope = new Map<string, boolean>();
  const inNamespaces = (type: string): boolean => {
    let namespaced = scope.get(type);
    if (namespaced === undefined) {
      namespaced = from.project.registry.get(type)?.kubernetes?.namespaced !== false;
      scope.set(type, namespaced);
    }
    return namespaced;
  };
  for (const resource of sources.flat()) {
    const md = resource.metadata;
    if (only !== undefined && !only.has(md.type)) continue;
    if (
      query.namespace !== undefined &&
      md.namespace !== query.namespace &&
      inNamespaces(md.type)
    ) {
      continue;
    }
    if (query.id !== undefined && md.id !== query.id) continue;
    if (ids !== undefined && !ids.has(md.id)) continue;
    if (query.selector !== undefined && !query.selector(md.labels)) continue;
    if (query.fields !== undefined && !query.fields(resource, from.project.registry.get(md.type))) {
      continue;
    }
    let group = byType.get(md.type);
    if (!group) byType.set(md.type, (group = []));
    group.push(resource);
  }
  // The snapshot is sorted by type, namespace and id, and so are the groups: in the order the
  // types were asked for (`vm,host`, as kubectl prints them), else by type.
  const asked = only === undefined ? undefined : [...only];
  const rank = (type: string): number => asked?.indexOf(type) ?? 0;
  const ownerKinds = projectKubernetesKinds(from.project.registry, undefined);
  return [...byType]
    .sort(([a], [b]) => rank(a) - rank(b) || compareStrings(a, b))
    .map(([type, resources]) => ({
      type,
      definition: from.project.registry.get(type),
      resources,
      ownerKinds,
    }));
}

/**
 * The full types that names (types or aliases) stand for, as {@link selectResources} reads them.
 *
 * @throws ResourceQueryError for an unknown or ambiguous type.
 */
export function resolveQueryTypes(from: QueriedState, names: readonly string[]): string[] {
  return names.map((name) => resolveType(from, name));
}

/** The full type a name stands for. */
function resolveType(from: QueriedState, name: string): string {
  try {
    return from.project.registry.resolve(name).type;
  } catch (error) {
    if (!(error instanceof TypeResolutionError)) throw error;
    if (error.code === 'unknown-type') {
      const written = undefinedTypes(from.snapshot, from.project.registry).filter(
        (t) => t.toLowerCase() === name.toLowerCase(),
      );
      if (written.length === 1) return written[0] as string;
      const builtin = from.builtins?.findByName(name);
      if (builtin !== undefined) return builtin.type;
    }
    throw new ResourceQueryError(
      typeErrorMessage(
        error,
        from.project.registry,
        undefinedTypes(from.snapshot, from.project.registry),
        from.builtins?.kinds(),
      ),
      { cause: error },
    );
  }
}

/**
 * A type that did not resolve, said for a user: an unknown one with the nearest type, alias or
 * kind (among the registry's and `others`, types written that have no definition), else the
 * nearest of `kinds`, Kubernetes' own kinds nothing here uses, named as one: a project of cosi
 * types alone would not know `Node` for one of its own.
 */
export function typeErrorMessage(
  error: TypeResolutionError,
  registry: DefinitionRegistry,
  others: readonly string[] = [],
  kinds: readonly string[] = [],
): string {
  if (error.code !== 'unknown-type') return error.message;
  const rgd = rgdTypeNote(error.typeName);
  if (rgd !== undefined) return `${error.message}: ${rgd}`;
  const own = didYouMeanType(error.typeName, registry.all()) ?? didYouMean(error.typeName, others);
  const kind = own === undefined ? didYouMean(error.typeName, kinds) : undefined;
  // kubectl's `get all`: the run's every type is what `cosi apply` prints.
  if (error.typeName === 'all') {
    return `${error.message}: \`cosi apply\` prints every type, \`cosi get rd\` lists them`;
  }
  if (kind !== undefined) {
    return `${error.message} (did you mean the Kubernetes kind ${JSON.stringify(kind)}?)`;
  }
  return own === undefined
    ? `${error.message}: \`cosi get rd\` lists the types`
    : `${error.message} (did you mean ${JSON.stringify(own)}?)`;
}

/** The types of the snapshot's resources that have no definition (controllers wrote them). */
export function undefinedTypes(snapshot: StateSnapshot, registry: DefinitionRegistry): string[] {
  const types = new Set(snapshot.resources.map((r) => r.metadata.type));
  return [...types].filter((t) => registry.get(t) === undefined);
}
