import { compareStrings } from '../compare-strings.js';
import { RESOURCE_DEFINITION_TYPE } from '../resource/definition.js';
import type { Kind, Pointer } from '../resource/pointer.js';
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

/**
 * Where the resources of `type` are in a snapshot's `resources` (sorted by type, namespace and
 * id): `[start, end)`, found by binary search, so that a reader of a few types does not walk the
 * whole state. Empty (`start === end`) when there are none.
 */
export function typeRange(
  resources: readonly Resource[],
  type: string,
): { readonly start: number; readonly end: number } {
  const start = firstAtOrAfter(resources, (r) => compareStrings(r.metadata.type, type) >= 0);
  const end = firstAtOrAfter(resources, (r) => compareStrings(r.metadata.type, type) > 0, start);
  return { start, end };
}

/** The resource at `pointer` in a snapshot's `resources` (binary search), if it holds one. */
export function findInSnapshot(
  resources: readonly Resource[],
  pointer: Pointer,
): Resource | undefined {
  const at = firstAtOrAfter(resources, (r) => comparePointers(r.metadata, pointer) >= 0);
  const found = resources[at];
  return found !== undefined && comparePointers(found.metadata, pointer) === 0 ? found : undefined;
}

function comparePointers(a: Pointer, b: Pointer): number {
  return (
    compareStrings(a.type, b.type) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.id, b.id)
  );
}

/** The first index from `from` whose resource passes `past` (which is false, then true). */
function firstAtOrAfter(
  resources: readonly Resource[],
  past: (resource: Resource) => boolean,
  from = 0,
): number {
  let low = from;
  let high = resources.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (past(resources[mid] as Resource)) high = mid;
    else low = mid + 1;
  }
  return low;
}
