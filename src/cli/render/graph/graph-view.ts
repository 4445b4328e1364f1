import { pointerKey } from '../../../engine/resource/pointer.js';
import type { Resource } from '../../../engine/resource/resource.js';
import type { DependencyEdge, DependencyGraph } from '../../../engine/runtime/dependency-graph.js';
import { isOutputKind } from '../../../engine/runtime/controller.js';
import type { RunRecord } from '../../../engine/record/run-record.js';
import type { ResourceGraphDag } from '../../../app/declared-controllers.js';
import type { ResourceGraph } from '../../../controllers/compiled-resource-graph.js';
import { filterGraph, type GraphFilter } from './filter-graph.js';
import { traceLineage, type ResourceNode } from '../../../app/explain/resource-lineage.js';

/** The resource instances of one type. */
export interface InstanceGroup {
  readonly type: string;
  readonly resources: readonly InstanceNode[];
}

/** A resource instance; `failed`: a queue controller gave up on it in the run. */
export type InstanceNode = ResourceNode & { readonly failed?: true };

/** What every graph format renders: the (filtered) controller graph, and the instances if asked. */
export interface GraphView extends DependencyGraph {
  /** Each kro RGD controller's resources in their dependency order (the view's controllers'). */
  readonly resourceGraphs?: readonly ResourceGraphDag[];
  /**
   * The status writes of RGD controllers: each reads its instances (a primary input) and writes
   * their status, not the instances. These are not among `edges`, so that the pair does not
   * read as a feedback loop; the drawings put them on the input's edge.
   */
  readonly statusWrites?: readonly StatusWrite[];
  /** The view's types that no controller of the whole project writes: only manifests make them. */
  readonly sourceTypes: readonly string[];
  /** With `--resources`: the instances of the view's types, grouped by type, sorted. */
  readonly resources?: readonly InstanceGroup[];
  /** The view's controllers that kept failing in the run (as the report marks them red). */
  readonly failedControllers?: readonly string[];
}

/** What failed in a run, as the report marks it: see `reportFailures` and `itemFailures`. */
export interface GraphFailures {
  /** Controllers that kept failing, by name. */
  readonly controllers: readonly string[];
  /** Resources a queue controller gave up on, by `pointerKey`. */
  readonly resources: ReadonlySet<string>;
}

/** A controller that writes only the status of the instances it reads (an RGD's controller). */
export interface StatusWrite {
  readonly controller: string;
  readonly type: string;
}

export interface GraphViewOptions {
  /** The resource DAGs of the project's RGDs: those of the view's controllers are shown. */
  readonly resourceGraphs?: readonly ResourceGraphDag[];
  readonly filter?: GraphFilter;
  /** The converged state's resources (definitions left out); their lineage is traced. */
  readonly resources?: readonly Resource[];
  /** The record of the run that made them: their exact lineage. */
  readonly record?: RunRecord;
  /** The kro RGD a controller runs: an output's lineage names what its template read. */
  readonly resourceGraph?: (controller: string) => ResourceGraph | undefined;
  /** Whether a type's kind is cluster-scoped: its resources print without a namespace. */
  readonly isClusterScoped?: (type: string) => boolean;
  /** What failed in the run that made the resources: marked in every format. */
  readonly failures?: GraphFailures;
}

/**
 * Narrows the graph to the filter and attaches the resource instances. Lineage is traced on the
 * whole graph, so a source outside the view is still named. Without a filter, types that only
 * have resources (no controller reads or writes them) join the view.
 */
export function buildGraphView(graph: DependencyGraph, options: GraphViewOptions = {}): GraphView {
  const filtered = options.filter ? filterGraph(graph, options.filter) : graph;
  const written = new Set(graph.edges.filter((e) => isOutputKind(e.kind)).map((e) => e.type));
  const sourceTypes = (types: readonly string[]): string[] => types.filter((t) => !written.has(t));
  const shown = new Set(filtered.controllers.map((c) => c.name));
  const dags = (options.resourceGraphs ?? []).filter((d) => shown.has(d.controller));
  const { edges, statusWrites } = separateStatusWrites(filtered.edges, dags);
  const failedControllers = (options.failures?.controllers ?? []).filter((c) => shown.has(c));
  const view = {
    ...filtered,
    ...(failedControllers.length > 0 ? { failedControllers } : {}),
    edges,
    sourceTypes: sourceTypes(filtered.types),
    ...(dags.length > 0 ? { resourceGraphs: dags } : {}),
    ...(statusWrites.length > 0 ? { statusWrites } : {}),
  };
  if (!options.resources) return view;
  const nodes = traceLineage(options.resources, graph, options.record, {
    ...(options.resourceGraph ? { resourceGraph: options.resourceGraph } : {}),
    ...(options.isClusterScoped ? { isClusterScoped: options.isClusterScoped } : {}),
  });
  const types = new Set(view.types);
  if (!options.filter) for (const node of nodes) types.add(node.type);
  const groups = new Map<string, InstanceNode[]>();
  const failed = options.failures?.resources;
  for (const traced of nodes) {
    if (!types.has(traced.type)) continue;
    const node: InstanceNode = failed?.has(pointerKey(traced))
      ? { ...traced, failed: true }
      : traced;
    const group = groups.get(node.type);
    if (group) group.push(node);
    else groups.set(node.type, [node]);
  }
  const sorted = [...types].sort();
  return {
    ...view,
    types: sorted,
    sourceTypes: sourceTypes(sorted),
    resources: [...groups].map(([type, resources]) => ({ type, resources })),
  };
}

/**
 * An RGD controller's output edge to its own instance type is the write of the instances'
 * status: taken out of the edges (with the primary input beside it, it would be drawn as a
 * cycle through the controller) and returned apart.
 */
export function separateStatusWrites(
  edges: readonly DependencyEdge[],
  dags: readonly ResourceGraphDag[],
): { edges: DependencyEdge[]; statusWrites: StatusWrite[] } {
  const statusWrites: StatusWrite[] = [];
  const isStatusWrite = (edge: DependencyEdge): boolean =>
    isOutputKind(edge.kind) &&
    dags.some((d) => d.controller === edge.controller && d.instanceType === edge.type) &&
    edges.some(
      (e) => e.controller === edge.controller && e.type === edge.type && e.kind === 'primary',
    );
  const kept = edges.filter((edge) => {
    if (!isStatusWrite(edge)) return true;
    statusWrites.push({ controller: edge.controller, type: edge.type });
    return false;
  });
  return { edges: kept, statusWrites };
}
