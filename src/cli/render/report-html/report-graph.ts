import type { ReportData } from '../../../app/report/report-data.js';
import { isOutputKind } from '../../../engine/runtime/controller.js';
import type { GraphView, InstanceGroup } from '../graph/graph-view.js';
import type { ResourceNode } from '../../../app/explain/resource-lineage.js';

/**
 * Up to this many resources the report's graph draws each of them, as `cosi graph --resources`
 * does; above it, the controllers and types only (a click on a type lists its resources).
 */
export const MAX_DRAWN_RESOURCES = 300;

/** The graph the report draws: the controller graph, and its resources when they are few. */
export function reportGraphView(data: ReportData): GraphView {
  const written = new Set(data.graph.edges.filter((e) => isOutputKind(e.kind)).map((e) => e.type));
  const types = new Set(data.graph.types);
  const drawn = data.resources.length <= MAX_DRAWN_RESOURCES;
  for (const r of data.resources) types.add(r.type);
  const sorted = [...types].sort();
  const view: GraphView = {
    ...data.graph,
    types: sorted,
    sourceTypes: sorted.filter((t) => !written.has(t)),
  };
  if (!drawn || data.resources.length === 0) return view;
  const groups = new Map<string, ResourceNode[]>();
  for (const r of data.resources) {
    const node: ResourceNode = {
      namespace: r.namespace,
      type: r.type,
      id: r.id,
      owner: r.owner,
      phase: r.phase as ResourceNode['phase'],
      derivedFrom: r.from.flatMap(([i, via]) => {
        const s = data.resources[i];
        return s ? [{ namespace: s.namespace, type: s.type, id: s.id, via }] : [];
      }),
    };
    const group = groups.get(r.type);
    if (group) group.push(node);
    else groups.set(r.type, [node]);
  }
  const resources: InstanceGroup[] = [...groups].map(([type, list]) => ({ type, resources: list }));
  return { ...view, resources };
}
