import type { ReportData } from '../../../app/report/report-data.js';
import { isOutputKind } from '../../../engine/runtime/controller.js';
import { separateStatusWrites, type GraphView, type InstanceGroup } from '../graph/graph-view.js';
import type { ResourceNode } from '../../../app/explain/resource-lineage.js';
import { drawnNodeCount, SVG_NODE_LIMIT } from '../graph/drawn-nodes.js';

/**
 * Up to this many resources the report's graph draws each of them, as `cosi graph --resources`
 * does; above it, the controllers and types only (a click on a type lists its resources).
 */
export const MAX_DRAWN_RESOURCES = 300;

/** What the report's graph section shows: a view to lay out (none: too large), and why less. */
export interface ReportGraph {
  readonly view?: GraphView;
  /** Said above the graph when it shows less than every resource. */
  readonly note?: string;
}

/**
 * The report's graph, degraded as the project grows: each resource up to
 * {@link MAX_DRAWN_RESOURCES}; above, the controllers and types (a click on a type lists its
 * resources in the table); and no layout at all when even that has more than
 * {@link SVG_NODE_LIMIT} nodes, which Graphviz would take minutes over.
 */
export function reportGraph(data: ReportData): ReportGraph {
  const view = reportGraphView(data);
  const n = data.resources.length;
  const typesOnly =
    n > MAX_DRAWN_RESOURCES
      ? `${count(n)} resources: the graph shows their types (resources are drawn up to ${MAX_DRAWN_RESOURCES}); click a type to list its resources, or draw part of it with cosi graph --focus TYPE/ID -o svg.`
      : undefined;
  const nodes = drawnNodeCount(view);
  if (nodes > SVG_NODE_LIMIT) {
    return {
      note: `No graph drawn: it has ${count(nodes)} nodes, more than the ${count(SVG_NODE_LIMIT)} a report lays out. Draw part of it with cosi graph -c NAME, -t TYPE or --focus TYPE/ID, or write -o dot.`,
    };
  }
  return { view, ...(typesOnly === undefined ? {} : { note: typesOnly }) };
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** The graph the report draws: the controller graph, and its resources when they are few. */
export function reportGraphView(data: ReportData): GraphView {
  const written = new Set(data.graph.edges.filter((e) => isOutputKind(e.kind)).map((e) => e.type));
  const types = new Set(data.graph.types);
  const drawn = data.resources.length <= MAX_DRAWN_RESOURCES;
  for (const r of data.resources) types.add(r.type);
  const sorted = [...types].sort();
  // Each RGD's render order and its status write, drawn as `cosi graph` draws them.
  const dags = data.resourceGraphs ?? [];
  const { edges, statusWrites } = separateStatusWrites(data.graph.edges, dags);
  const view: GraphView = {
    ...data.graph,
    edges,
    types: sorted,
    sourceTypes: sorted.filter((t) => !written.has(t)),
    ...(dags.length > 0 ? { resourceGraphs: dags } : {}),
    ...(statusWrites.length > 0 ? { statusWrites } : {}),
  };
  if (!drawn || data.resources.length === 0) return view;
  const groups = new Map<string, ResourceNode[]>();
  for (const r of data.resources) {
    const node: ResourceNode = {
      namespace: r.namespace,
      type: r.type,
      id: r.id,
      owner: r.owner,
      writer: r.writer ?? r.owner,
      phase: r.phase as ResourceNode['phase'],
      ...(r.clusterScoped ? { clusterScoped: true } : {}),
      derivedFrom: r.from.flatMap(([i, via]) => {
        const s = data.resources[i];
        if (!s) return [];
        const source = { namespace: s.namespace, type: s.type, id: s.id, via };
        return [s.clusterScoped ? { ...source, clusterScoped: true as const } : source];
      }),
    };
    const group = groups.get(r.type);
    if (group) group.push(node);
    else groups.set(r.type, [node]);
  }
  const resources: InstanceGroup[] = [...groups].map(([type, list]) => ({ type, resources: list }));
  return { ...view, resources };
}
