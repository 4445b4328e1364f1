import { layoutGraph } from './drawing.js';
import type { GraphView } from './graph-view.js';

/**
 * The most nodes laid out as SVG by default (`graph -o svg`, the report's graph): Graphviz lays
 * 900 nodes out in about 2.5 s and 3,000 in about two minutes (`npm run bench -- graph-svg`),
 * so a limit a little above the first keeps an SVG to seconds.
 */
export const SVG_NODE_LIMIT = 1_000;

/**
 * How many nodes the DOT (and SVG) output of a view draws: controllers, types drawn as notes,
 * resources in their type's cluster, and the resources of each kro RGD's render order. What
 * Graphviz's layout time grows with, faster than linearly. Linear in the view.
 */
export function drawnNodeCount(view: GraphView): number {
  const drawing = layoutGraph(view);
  let count = drawing.nodes.length;
  for (const cluster of drawing.clusters) count += cluster.resources.length;
  for (const dag of view.resourceGraphs ?? []) count += dag.resources.length;
  return count;
}
