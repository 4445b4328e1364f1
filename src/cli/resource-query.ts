import type { ResourceDefinition } from '../engine/resource/definition.js';
import { RESOURCE_DEFINITION_TYPE } from '../engine/resource/definition.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../engine/resource/definition-registry.js';
import type { Resource } from '../engine/resource/resource.js';
import type { StateSnapshot } from '../engine/state/state-snapshot.js';
import { CliError, EXIT } from './exit-codes.js';
import type { ResourceGroup } from './render/resources.js';

export interface ResourceQuery {
  /** A type or alias; every type when omitted. */
  readonly type?: string;
  readonly id?: string;
  readonly namespace?: string;
}

/** What a query reads: the state at one moment, and the project's types that name it. */
export interface QueriedState {
  readonly project: { readonly registry: DefinitionRegistry };
  readonly snapshot: StateSnapshot;
}

/**
 * The resources of a snapshot, grouped by type (sorted by type, then namespace and id),
 * optionally one type, one namespace or one resource. Definitions are listed only when asked for
 * by type.
 *
 * @throws CliError (usage) for an unknown or ambiguous type.
 */
export function selectResources(from: QueriedState, query: ResourceQuery): ResourceGroup[] {
  const only =
    query.type === undefined ? undefined : resolveType(from.project.registry, query.type);
  const source =
    only?.type === RESOURCE_DEFINITION_TYPE ? from.snapshot.definitions : from.snapshot.resources;
  const byType = new Map<string, Resource[]>();
  for (const resource of source) {
    const md = resource.metadata;
    if (only !== undefined && md.type !== only.type) continue;
    if (query.namespace !== undefined && md.namespace !== query.namespace) continue;
    if (query.id !== undefined && md.id !== query.id) continue;
    let group = byType.get(md.type);
    if (!group) byType.set(md.type, (group = []));
    group.push(resource);
  }
  // The snapshot is sorted by type, namespace and id, and so are the groups.
  return [...byType].map(([type, resources]) => ({
    type,
    definition: from.project.registry.get(type),
    resources,
  }));
}

function resolveType(registry: DefinitionRegistry, type: string): ResourceDefinition {
  try {
    return registry.resolve(type);
  } catch (error) {
    if (error instanceof TypeResolutionError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}
