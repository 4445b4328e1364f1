import { renderGraphDot, type DotOptions } from './dot.js';
import type { GraphView } from './graph-view.js';

/**
 * Lays DOT text out as SVG with Graphviz compiled to WebAssembly, in-process: no `dot` binary
 * needed. The module (2 MB) is imported only when an SVG is asked for. Graphviz's layout is
 * deterministic, so the same DOT gives the same SVG.
 */
export async function layoutDotAsSvg(dot: string): Promise<string> {
  const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
  const graphviz = await Graphviz.load();
  return graphviz.dot(dot, 'svg');
}

/**
 * The graph as SVG: the DOT output (same nodes, clusters, styles and edge labels), laid out by
 * the same Graphviz `dot -Tsvg` would run, its declarations last first
 * ({@link DotOptions.lastFirst}): the bundled Graphviz lays a rank out bottom up.
 */
export async function renderGraphSvg(view: GraphView, options?: DotOptions): Promise<string> {
  return layoutDotAsSvg(renderGraphDot(view, { ...options, lastFirst: true }));
}
