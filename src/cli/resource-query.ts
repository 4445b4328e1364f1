import type { ResourceDefinition } from '../engine/resource/definition.js';
import { RESOURCE_DEFINITION_TYPE } from '../engine/resource/definition.js';
import { TypeResolutionError } from '../engine/resource/definition-registry.js';
import type { Resource } from '../engine/resource/resource.js';
import { CliError, EXIT } from './exit-codes.js';
import type { ProjectRun } from './project.js';
import type { ResourceGroup } from './render/resources.js';

export interface ResourceQuery {
  /** A type or alias; every type when omitted. */
  readonly type?: string;
  readonly id?: string;
  readonly namespace?: string;
}

/**
 * The resources of a converged project, grouped by type (sorted), optionally one type, one
 * namespace or one resource. Definitions are listed only when asked for by type.
 *
 * @throws CliError (usage) for an unknown or ambiguous type.
 */
export function selectResources(
  run: Pick<ProjectRun, 'registry' | 'state'>,
  query: ResourceQuery,
): ResourceGroup[] {
  let only: ResourceDefinition | undefined;
  if (query.type !== undefined) {
    try {
      only = run.registry.resolve(query.type);
    } catch (error) {
      if (error instanceof TypeResolutionError) throw new CliError(error.message, EXIT.usage);
      throw error;
    }
  }
  const byType = new Map<string, Resource[]>();
  for (const kind of run.state.kinds()) {
    if (only ? kind.type !== only.type : kind.type === RESOURCE_DEFINITION_TYPE) continue;
    if (query.namespace !== undefined && kind.namespace !== query.namespace) continue;
    const resources = run.state
      .listSync(kind)
      .filter((r) => query.id === undefined || r.metadata.id === query.id);
    if (resources.length === 0) continue;
    byType.set(kind.type, [...(byType.get(kind.type) ?? []), ...resources]);
  }
  return [...byType.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([type, resources]) => ({
      type,
      definition: run.registry.get(type),
      resources: resources.sort(
        (a, b) =>
          compare(a.metadata.namespace, b.metadata.namespace) ||
          compare(a.metadata.id, b.metadata.id),
      ),
    }));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
