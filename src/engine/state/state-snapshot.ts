import { compareStrings } from '../compare-strings.js';
import { RESOURCE_DEFINITION_TYPE } from '../resource/definition.js';
import type { Kind } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import type { State } from './state.js';

/**
 * Everything a state held at one moment, for readers that show or check the whole of it (the
 * CLI's tables, graphs, checks and the watch view): taken once per run or watch round, then read
 * as often as needed without going back to the state. Stored resources are frozen, so a snapshot
 * shares them and costs one array.
 */
export interface StateSnapshot {
  /** Every resource but the definitions, sorted by type, namespace and id. */
  readonly resources: readonly Resource[];
  /** The `ResourceDefinitions.meta.cosi.dev` resources, sorted by id. */
  readonly definitions: readonly Resource[];
}

/**
 * Lists every kind of `state` once. A kind whose list fails is handed to `onListError` (and
 * left out) when it is given; without it, the first failure rejects.
 */
export async function takeSnapshot(
  state: State,
  onListError?: (kind: Kind, error: unknown) => void,
): Promise<StateSnapshot> {
  const resources: Resource[] = [];
  const definitions: Resource[] = [];
  const kinds = (await state.kinds()).sort(
    (a, b) => compareStrings(a.type, b.type) || compareStrings(a.namespace, b.namespace),
  );
  for (const kind of kinds) {
    let listed: Resource[];
    try {
      listed = await state.list(kind);
    } catch (error) {
      if (onListError === undefined) throw error;
      onListError(kind, error);
      continue;
    }
    if (kind.type === RESOURCE_DEFINITION_TYPE) definitions.push(...listed);
    else for (const resource of listed) resources.push(resource);
  }
  return { resources, definitions };
}
