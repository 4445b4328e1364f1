import { escapeControlLines } from '../escape-control.js';
import { renderGraphDot } from './dot.js';
import type { GraphView } from './graph-view.js';
import { renderGraphJson } from './json.js';
import { renderGraphMermaid } from './mermaid.js';
import { renderGraphSvg } from './svg.js';
import { renderGraphText } from './text.js';
import { renderGraphTree } from './tree.js';

/** The formats of `cosi graph -o`. */
export const GRAPH_FORMATS = ['text', 'tree', 'dot', 'svg', 'mermaid', 'json'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

const RENDERERS: Record<GraphFormat, (view: GraphView) => string | Promise<string>> = {
  // The two formats for people: ids and types from manifests are printed escaped.
  text: (view) => escapeControlLines(renderGraphText(view)),
  tree: (view) => escapeControlLines(renderGraphTree(view)),
  dot: renderGraphDot,
  svg: renderGraphSvg,
  mermaid: renderGraphMermaid,
  json: renderGraphJson,
};

/** Prints a graph view in a format. Deterministic: the same view gives the same text. */
export async function renderGraph(view: GraphView, format: GraphFormat): Promise<string> {
  return RENDERERS[format](view);
}
