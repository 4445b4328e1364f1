import { pointerKey, type Pointer } from '../../../engine/resource/pointer.js';
import type { GraphView, InstanceGroup } from './graph-view.js';
import type { ResourceNode } from '../../../app/explain/resource-lineage.js';

/** `--focus`: one resource and how many lineage hops around it to keep. */
export interface GraphFocus {
  readonly resource: Pointer;
  /** Lineage hops, either direction; `Infinity` for everything connected. */
  readonly depth: number;
}

/**
 * Cuts a view with resources down to one resource and those within `depth` lineage hops of it
 * (what it came from and what came from it, an edge being a hop), their types, the controllers
 * that wrote them, and the declared edges between those controllers and types. Linear in the
 * view's resources and edges.
 */
export function focusGraphView(view: GraphView, focus: GraphFocus): GraphView {
  const nodes = (view.resources ?? []).flatMap((g) => g.resources);
  const neighbours = new Map<string, ResourceNode[]>();
  const byKey = new Map(nodes.map((n) => [pointerKey(n), n]));
  const link = (a: ResourceNode, b: ResourceNode): void => {
    const list = neighbours.get(pointerKey(a));
    if (list) list.push(b);
    else neighbours.set(pointerKey(a), [b]);
  };
  for (const node of nodes) {
    for (const source of node.derivedFrom) {
      const parent = byKey.get(pointerKey(source));
      if (!parent) continue;
      link(node, parent);
      link(parent, node);
    }
  }
  const seed = byKey.get(pointerKey(focus.resource));
  const kept = new Set<string>(seed ? [pointerKey(seed)] : []);
  let frontier = seed ? [seed] : [];
  for (let hop = 0; hop < focus.depth && frontier.length > 0; hop++) {
    const next: ResourceNode[] = [];
    for (const node of frontier) {
      for (const neighbour of neighbours.get(pointerKey(node)) ?? []) {
        if (kept.has(pointerKey(neighbour))) continue;
        kept.add(pointerKey(neighbour));
        next.push(neighbour);
      }
    }
    frontier = next;
  }
  const resources: InstanceGroup[] = [];
  for (const group of view.resources ?? []) {
    const inside = group.resources.filter((r) => kept.has(pointerKey(r)));
    if (inside.length > 0) resources.push({ type: group.type, resources: inside });
  }
  const types = new Set(resources.map((g) => g.type));
  const writers = new Set(resources.flatMap((g) => g.resources.map((r) => r.owner)));
  const controllers = view.controllers.filter((c) => writers.has(c.name));
  return {
    controllers,
    types: view.types.filter((t) => types.has(t)),
    sourceTypes: view.sourceTypes.filter((t) => types.has(t)),
    edges: view.edges.filter((e) => writers.has(e.controller) && types.has(e.type)),
    ...statusWritesOf(view, writers, types),
    ...failedOf(view, writers),
    resources,
  };
}

/** The view's failed controllers among those kept. */
function failedOf(view: GraphView, writers: ReadonlySet<string>): Partial<GraphView> {
  const failed = (view.failedControllers ?? []).filter((c) => writers.has(c));
  return failed.length > 0 ? { failedControllers: failed } : {};
}

/** The view's status writes between the controllers and types kept. */
function statusWritesOf(
  view: GraphView,
  writers: ReadonlySet<string>,
  types: ReadonlySet<string>,
): Pick<GraphView, 'statusWrites'> {
  const kept = (view.statusWrites ?? []).filter(
    (s) => writers.has(s.controller) && types.has(s.type),
  );
  return kept.length > 0 ? { statusWrites: kept } : {};
}
