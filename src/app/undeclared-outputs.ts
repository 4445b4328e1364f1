import { RESOURCE_DEFINITION_TYPE } from '../engine/resource/definition.js';
import { toPointer, type Pointer } from '../engine/resource/pointer.js';
import { isOutputKind } from '../engine/runtime/controller.js';
import type { DependencyGraph } from '../engine/runtime/dependency-graph.js';
import type { State } from '../engine/state/state.js';

/** A resource a registered controller owns but no longer declares as an output. */
export interface UndeclaredOutput {
  readonly pointer: Pointer;
  /** The controller that owns it (its `metadata.owner`). */
  readonly owner: string;
}

/**
 * The resources of `state` owned by a controller of `graph` whose type is not among that
 * controller's outputs. An earlier version of the controller wrote them (a kro RGD that rendered
 * an Ingress before an edit dropped it, a controller whose outputs changed between two runs on
 * etcd), and nothing can reach them now: the runtime lets a controller write, list and destroy
 * only the types it declares. Resources owned by a controller not in `graph` are left alone: it
 * may be registered later, or by another process.
 */
export async function findUndeclaredOutputs(
  state: State,
  graph: DependencyGraph,
): Promise<UndeclaredOutput[]> {
  const outputs = new Map<string, Set<string>>();
  for (const { name } of graph.controllers) outputs.set(name, new Set());
  for (const edge of graph.edges) {
    if (isOutputKind(edge.kind)) outputs.get(edge.controller)?.add(edge.type);
  }
  const found: UndeclaredOutput[] = [];
  if (outputs.size === 0) return found;
  for (const kind of await state.kinds()) {
    if (kind.type === RESOURCE_DEFINITION_TYPE) continue;
    for (const resource of await state.list(kind)) {
      const { owner } = resource.metadata;
      if (owner === '') continue;
      const declared = outputs.get(owner);
      if (declared !== undefined && !declared.has(kind.type)) {
        found.push({ pointer: toPointer(resource.metadata), owner });
      }
    }
  }
  return found;
}
