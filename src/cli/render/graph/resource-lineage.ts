import type { Phase } from '../../../engine/resource/metadata.js';
import { pointerKey, type Pointer } from '../../../engine/resource/pointer.js';
import type { Resource } from '../../../engine/resource/resource.js';
import type { DependencyGraph } from '../../../engine/runtime/dependency-graph.js';
import { isOutputKind } from '../../../engine/runtime/controller.js';
import { isDestroyReadyKind } from './edge-style.js';
import { compareStrings } from '../../../engine/compare-strings.js';

/**
 * How a resource is known to come from another: an owner reference it carries, or (without owner
 * references) an input of the controller that wrote it, with the same id or pinned to one id.
 */
export type LineageVia = 'ownerReference' | 'sameId' | 'pinnedInput';

/** A resource another one was derived from. */
export interface ResourceSource extends Pointer {
  readonly via: LineageVia;
}

/** A resource instance with who wrote it and where it came from. */
export interface ResourceNode extends Pointer {
  /** The controller that wrote it; empty for the user's manifests. */
  readonly owner: string;
  readonly phase: Phase;
  /** Closest first: owner references, then same-id inputs, then pinned inputs. */
  readonly derivedFrom: readonly ResourceSource[];
}

const VIA_RANK: Record<LineageVia, number> = { ownerReference: 0, sameId: 1, pinnedInput: 2 };

/**
 * The lineage of every resource. A resource's owner references say where it came from; a resource
 * without any was derived, by this heuristic, from the inputs of the controller that wrote it
 * (`metadata.owner`): the input resource with the same id, and the one resource of an input
 * pinned to an id (a config singleton feeds everything its reader writes). destroyReady inputs
 * carry no data and do not count. Only sources that exist are listed. Sorted by type, namespace
 * and id.
 */
export function traceLineage(
  resources: readonly Resource[],
  graph: DependencyGraph,
): ResourceNode[] {
  const byKey = new Map(resources.map((r) => [pointerKey(r.metadata), r]));
  const inputsOf = new Map<string, DependencyGraph['edges'][number][]>();
  for (const edge of graph.edges) {
    if (isOutputKind(edge.kind) || isDestroyReadyKind(edge.kind)) continue;
    const list = inputsOf.get(edge.controller);
    if (list) list.push(edge);
    else inputsOf.set(edge.controller, [edge]);
  }

  const nodes = resources.map((resource): ResourceNode => {
    const { namespace, type, id, owner, phase, ownerReferences } = resource.metadata;
    const candidates: ResourceSource[] = [];
    if (ownerReferences.length > 0) {
      const managing = [...ownerReferences].sort(
        (a, b) => Number(b.controller === true) - Number(a.controller === true),
      );
      for (const ref of managing) {
        candidates.push({ namespace, type: ref.type, id: ref.id, via: 'ownerReference' });
      }
    } else if (owner !== '') {
      for (const input of inputsOf.get(owner) ?? []) {
        candidates.push({
          namespace: input.namespace ?? namespace,
          type: input.type,
          id: input.id ?? id,
          via: input.id === undefined ? 'sameId' : 'pinnedInput',
        });
      }
    }
    const seen = new Set<string>([pointerKey(resource.metadata)]);
    const derivedFrom = candidates.filter((source) => {
      const key = pointerKey(source);
      if (seen.has(key) || !byKey.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (ownerReferences.length === 0) {
      // The closest ancestor first: written by a controller before the user's own resources.
      const written = (s: Pointer): number => (byKey.get(pointerKey(s))?.metadata.owner ? 0 : 1);
      derivedFrom.sort(
        (a, b) =>
          VIA_RANK[a.via] - VIA_RANK[b.via] || written(a) - written(b) || comparePointers(a, b),
      );
    }
    return { namespace, type, id, owner, phase, derivedFrom };
  });
  return nodes.sort(comparePointers);
}

/** By type, then namespace, then id. */
export function comparePointers(a: Pointer, b: Pointer): number {
  return (
    compareStrings(a.type, b.type) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.id, b.id)
  );
}
