import type { DependencyGraph } from '../../../engine/runtime/dependency-graph.js';
import { directedEdges, nodeKey, type GraphNode } from './graph-node.js';

/** Which part of the graph to keep: the named nodes and everything within `depth` hops. */
export interface GraphFilter {
  readonly controllers: readonly string[];
  readonly types: readonly string[];
  /** Hops in the bipartite graph, either direction; `Infinity` for the whole connected part. */
  readonly depth: number;
}

/**
 * The subgraph around the filter's nodes: every controller and type at most `depth` hops away
 * (an edge is a hop, whichever way it points), and the edges between them. Named types stay even
 * when no controller touches them. Without names the graph is returned as it is.
 */
export function filterGraph(graph: DependencyGraph, filter: GraphFilter): DependencyGraph {
  const seeds: GraphNode[] = [
    ...filter.controllers.map((name) => ({ kind: 'controller' as const, name })),
    ...filter.types.map((name) => ({ kind: 'type' as const, name })),
  ];
  if (seeds.length === 0) return graph;

  const neighbours = new Map<string, GraphNode[]>();
  const link = (a: GraphNode, b: GraphNode): void => {
    const list = neighbours.get(nodeKey(a));
    if (list) list.push(b);
    else neighbours.set(nodeKey(a), [b]);
  };
  for (const { from, to } of directedEdges(graph)) {
    link(from, to);
    link(to, from);
  }

  const kept = new Set(seeds.map(nodeKey));
  let frontier = seeds;
  for (let hop = 0; hop < filter.depth && frontier.length > 0; hop++) {
    const next: GraphNode[] = [];
    for (const node of frontier) {
      for (const neighbour of neighbours.get(nodeKey(node)) ?? []) {
        if (kept.has(nodeKey(neighbour))) continue;
        kept.add(nodeKey(neighbour));
        next.push(neighbour);
      }
    }
    frontier = next;
  }

  const hasController = (name: string): boolean => kept.has(nodeKey({ kind: 'controller', name }));
  const hasType = (name: string): boolean => kept.has(nodeKey({ kind: 'type', name }));
  return {
    controllers: graph.controllers.filter((c) => hasController(c.name)),
    types: [...new Set([...graph.types, ...filter.types])].filter(hasType).sort(),
    edges: graph.edges.filter((e) => hasController(e.controller) && hasType(e.type)),
  };
}
