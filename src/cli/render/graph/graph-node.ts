import type { DependencyEdge, DependencyGraph } from '../../../engine/runtime/dependency-graph.js';
import { isOutputKind } from '../../../engine/runtime/controller.js';

/** A node of the bipartite controller graph: a controller or a resource type. */
export interface GraphNode {
  readonly kind: 'controller' | 'type';
  readonly name: string;
}

/** A map key for a node; controllers and types may share a name. */
export const nodeKey = (node: GraphNode): string => `${node.kind}\0${node.name}`;

/** An edge in the direction data flows: type -> controller for inputs, controller -> type for outputs. */
export interface DirectedEdge {
  readonly from: GraphNode;
  readonly to: GraphNode;
  readonly edge: DependencyEdge;
}

/** Every edge of a graph (or view), pointed the way data flows. */
export function directedEdges(graph: Pick<DependencyGraph, 'edges'>): DirectedEdge[] {
  return graph.edges.map((edge) => {
    const controller: GraphNode = { kind: 'controller', name: edge.controller };
    const type: GraphNode = { kind: 'type', name: edge.type };
    return isOutputKind(edge.kind)
      ? { from: controller, to: type, edge }
      : { from: type, to: controller, edge };
  });
}
