import { RESOURCE_DEFINITION_TYPE } from '../engine/resource/definition.js';
import { toPointer, type Pointer } from '../engine/resource/pointer.js';
import { isOutputKind } from '../engine/runtime/controller.js';
import type { DependencyGraph } from '../engine/runtime/dependency-graph.js';
import type { State } from '../engine/state/state.js';

/** A resource a controller wrote: its `metadata.owner` is the controller's name. */
export interface OwnedResource {
  readonly pointer: Pointer;
  readonly owner: string;
}

/** What a process that takes the lead finds in the state, read in one pass over every kind. */
export interface LeaderScan {
  /** The users' resources (no owner) tearing down: removed manifests left to destroy. */
  readonly tornDownManifests: readonly Pointer[];
  /** Every resource a controller owns (see {@link undeclaredOutputs}). */
  readonly owned: readonly OwnedResource[];
}

/** Reads every kind of `state` once (definitions aside) for what the leader takes on. */
export async function scanForLeader(state: State): Promise<LeaderScan> {
  const tornDownManifests: Pointer[] = [];
  const owned: OwnedResource[] = [];
  for (const kind of await state.kinds()) {
    if (kind.type === RESOURCE_DEFINITION_TYPE) continue;
    for (const { metadata } of await state.list(kind)) {
      if (metadata.owner !== '')
        owned.push({ pointer: toPointer(metadata), owner: metadata.owner });
      else if (metadata.phase === 'tearingDown') tornDownManifests.push(toPointer(metadata));
    }
  }
  return { tornDownManifests, owned };
}

/**
 * Those of `owned` whose owner is a controller of `graph` that does not declare their type as
 * an output. An earlier version of the controller wrote them (a kro RGD that rendered an Ingress
 * before an edit dropped it, a controller whose outputs changed between two runs on etcd), and
 * nothing can reach them now: the runtime lets a controller write, list and destroy only the
 * types it declares. Resources of a controller not in `graph` are left alone: it may be
 * registered later, or by another process.
 */
export function undeclaredOutputs(
  owned: readonly OwnedResource[],
  graph: DependencyGraph,
): OwnedResource[] {
  const outputs = new Map<string, Set<string>>();
  for (const { name } of graph.controllers) outputs.set(name, new Set());
  for (const edge of graph.edges) {
    if (isOutputKind(edge.kind)) outputs.get(edge.controller)?.add(edge.type);
  }
  return owned.filter(({ pointer, owner }) => {
    const declared = outputs.get(owner);
    return declared !== undefined && !declared.has(pointer.type);
  });
}
