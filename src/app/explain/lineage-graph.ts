import { versionKey, type VersionRef } from '../../engine/record/run-record.js';
import type { ExplainIndex } from './explain-source.js';
import {
  originOf,
  parentsOf,
  type LineageEdgeKind,
  type LineageNode,
  type VersionOrigin,
} from './lineage.js';

/** One version in a {@link LineageGraph}: where it came from, and the versions it was made from. */
export interface LineageVertex {
  readonly ref: VersionRef;
  readonly origin: VersionOrigin;
  /** Its parents as `traceBack` lists them: why, and the parent's index in the graph. */
  readonly edges: readonly (readonly [LineageEdgeKind, number])[];
}

/**
 * The lineage of many versions at once, each version once: the graph `traceBack` unfolds into a
 * tree for one version. A report holds the lineage of every resource in it, where the trees
 * would repeat shared ancestors (a chain of n resources: n trees of up to n lines).
 */
export interface LineageGraph {
  readonly vertices: readonly LineageVertex[];
  /** The index of each root given, in order. */
  readonly roots: readonly number[];
}

/**
 * Every version `roots` descend from, each with its origin and parents as `explain`'s lineage
 * has them ({@link originOf}, {@link parentsOf}). Linear in the versions and edges reached.
 */
export function lineageGraph(index: ExplainIndex, roots: readonly VersionRef[]): LineageGraph {
  const vertices: { ref: VersionRef; origin: VersionOrigin; edges: [LineageEdgeKind, number][] }[] =
    [];
  const byKey = new Map<string, number>();
  const pending: number[] = [];
  const add = (ref: VersionRef): number => {
    const key = versionKey(ref);
    const known = byKey.get(key);
    if (known !== undefined) return known;
    const at = vertices.length;
    vertices.push({ ref, origin: originOf(index, ref), edges: [] });
    byKey.set(key, at);
    pending.push(at);
    return at;
  };
  const rootIndexes = roots.map(add);
  while (pending.length > 0) {
    const vertex = vertices[pending.pop() as number] as (typeof vertices)[number];
    for (const parent of parentsOf(index, vertex.ref)) {
      vertex.edges.push([parent.kind, add(parent.ref)]);
    }
  }
  return { vertices, roots: rootIndexes };
}

/**
 * The tree of one vertex, cut as `traceBack` cuts it: at a version met again on its own path
 * (`cycle`) and after `depth` hops. With the graph of a version, the same tree `traceBack` gives.
 */
export function unfoldLineage(
  graph: LineageGraph,
  at: number,
  depth = Number.POSITIVE_INFINITY,
): LineageNode {
  const path = new Set<number>();
  const walk = (i: number, left: number): LineageNode => {
    const { ref, origin, edges } = graph.vertices[i] as LineageVertex;
    if (path.has(i)) return { ref, origin, edges: [], cut: 'cycle' };
    if (edges.length === 0) return { ref, origin, edges: [] };
    if (left <= 0) return { ref, origin, edges: [], cut: 'depth' };
    path.add(i);
    const children = edges.map(([kind, parent]) => ({ kind, node: walk(parent, left - 1) }));
    path.delete(i);
    return { ref, origin, edges: children };
  };
  return walk(at, depth);
}
