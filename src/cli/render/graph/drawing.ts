import { pointerKey, type Pointer } from '../../../engine/resource/pointer.js';
import { isOutputKind } from '../../../engine/runtime/controller.js';
import { edgeLine, type EdgeLine } from './edge-style.js';
import { placeText } from '../scoped-pointer.js';
import { drawnLabel } from './drawn-label.js';
import type { GraphView } from './graph-view.js';

/** A box, note or resource to draw; `key` is unique across kinds, `name` within one. */
export interface DrawnNode {
  readonly kind: 'controller' | 'type' | 'resource';
  readonly key: string;
  readonly name: string;
  readonly label: string;
  /** A queue controller. */
  readonly queue?: boolean;
  /** A resource's namespace. */
  readonly namespace?: string;
}

/** A resource type drawn as a group of its instances. */
export interface DrawnCluster {
  readonly key: string;
  readonly label: string;
  readonly resources: readonly DrawnNode[];
}

/** An end of an edge: a node, or a cluster as a whole. */
export type Endpoint = { readonly node: string } | { readonly cluster: string };

/** An edge to draw. `lineage` links a resource to one derived from it. */
export interface DrawnEdge {
  readonly from: Endpoint;
  readonly to: Endpoint;
  readonly line: EdgeLine | 'lineage';
  readonly label?: string;
  /**
   * Data flows both ways: a primary input whose status the controller writes (an RGD's
   * instances), drawn as one edge with two heads instead of a loop.
   */
  readonly both?: boolean;
}

/** What the DOT and Mermaid formats draw, decided once for both. */
export interface Drawing {
  /** Controllers, and the types drawn as single notes. */
  readonly nodes: readonly DrawnNode[];
  /** With `--resources`, one per type that has instances. */
  readonly clusters: readonly DrawnCluster[];
  readonly edges: readonly DrawnEdge[];
}

export const controllerKey = (name: string): string => `controller:${name}`;
export const typeKey = (type: string): string => `type:${type}`;
export const clusterKey = (type: string): string => `cluster_${type}`;
export const resourceName = (p: Pointer): string => `${p.namespace}/${p.type}/${p.id}`;
export const resourceKey = (p: Pointer): string => `resource:${resourceName(p)}`;

/** The drawing keys of the view's failed controllers and resources. */
export function failedKeys(view: GraphView): Set<string> {
  const keys = new Set((view.failedControllers ?? []).map(controllerKey));
  for (const group of view.resources ?? []) {
    for (const r of group.resources) if (r.failed === true) keys.add(resourceKey(r));
  }
  return keys;
}

/**
 * Lays the view out as nodes, clusters and edges. Without resources: one note per type and one
 * edge per declared dependency. With resources, as `talosctl inspect dependencies
 * --with-resources`: a type with instances is a cluster of them; an input pinned to an id comes
 * from that resource, any other input from the cluster; an output goes to each resource the
 * controller owns (to the cluster when it owns none); and a lineage edge links each resource to
 * those derived from it.
 */
export function layoutGraph(view: GraphView): Drawing {
  const groups = new Map((view.resources ?? []).map((g) => [g.type, g.resources]));
  const nodes: DrawnNode[] = [
    ...view.controllers.map((c): DrawnNode => ({
      kind: 'controller',
      key: controllerKey(c.name),
      name: c.name,
      label: c.name,
      queue: c.kind === 'qcontroller',
    })),
    ...view.types
      .filter((t) => !groups.has(t))
      .map((t): DrawnNode => ({ kind: 'type', key: typeKey(t), name: t, label: t })),
  ];
  const clusters = [...groups].map(([type, resources]): DrawnCluster => ({
    key: clusterKey(type),
    label: type,
    resources: resources.map((r) => ({
      kind: 'resource',
      key: resourceKey(r),
      name: resourceName(r),
      label: drawnLabel(placeText(r)),
      namespace: r.namespace,
    })),
  }));

  const edges: DrawnEdge[] = [];
  // An input declared once per namespace (an RGD's primary input in each namespace that holds
  // instances) is drawn without its namespace: one edge, not one per namespace.
  const drawnInputs = new Set<string>();
  const typeEnd = (type: string): Endpoint =>
    groups.has(type) ? { cluster: clusterKey(type) } : { node: typeKey(type) };
  for (const edge of view.edges) {
    const controller = { node: controllerKey(edge.controller) };
    const line = edgeLine(edge.kind);
    const label = edge.id === undefined ? {} : { label: edge.id };
    const instances = groups.get(edge.type);
    if (isOutputKind(edge.kind)) {
      const owned = (instances ?? []).filter((r) => r.owner === edge.controller);
      if (owned.length === 0) edges.push({ from: controller, to: typeEnd(edge.type), line });
      for (const r of owned) edges.push({ from: controller, to: { node: resourceKey(r) }, line });
      continue;
    }
    const status = view.statusWrites?.some(
      (s) => s.controller === edge.controller && s.type === edge.type && edge.kind === 'primary',
    );
    const pinned =
      edge.id === undefined
        ? undefined
        : instances?.find((r) => r.id === edge.id && r.namespace === edge.namespace);
    const drawn: DrawnEdge = {
      from: pinned ? { node: resourceKey(pinned) } : typeEnd(edge.type),
      to: controller,
      line,
      ...label,
      ...(status === true
        ? { both: true, label: edge.id === undefined ? 'status' : `${edge.id}, status` }
        : {}),
    };
    const key = JSON.stringify(drawn);
    if (drawnInputs.has(key)) continue;
    drawnInputs.add(key);
    edges.push(drawn);
  }
  const everyInstance = [...groups.values()].flat();
  const drawn = new Set(everyInstance.map((r) => pointerKey(r)));
  for (const r of everyInstance) {
    for (const source of r.derivedFrom) {
      if (!drawn.has(pointerKey(source))) continue;
      edges.push({
        from: { node: resourceKey(source) },
        to: { node: resourceKey(r) },
        line: 'lineage',
      });
    }
  }
  return { nodes, clusters, edges };
}
