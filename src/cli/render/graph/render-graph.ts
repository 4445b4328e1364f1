import { renderGraphDot } from './dot.js';
import type { GraphView } from './graph-view.js';
import { renderGraphJson } from './json.js';
import { renderGraphMermaid } from './mermaid.js';
import { oneLineView } from './one-line-view.js';
import { renderGraphSvg } from './svg.js';
import { renderGraphText } from './text.js';
import { renderGraphTree } from './tree.js';

import type { GraphFormat } from './graph-formats.js';

export { GRAPH_FORMATS, type GraphFormat } from './graph-formats.js';

const RENDERERS: Record<GraphFormat, (view: GraphView) => string | Promise<string>> = {
  // The two formats for people, one entry a line: ids, types and controller names are printed
  // escaped, line feeds included.
  text: (view) => renderGraphText(oneLineView(view)),
  tree: (view) => renderGraphTree(oneLineView(view)),
  dot: renderGraphDot,
  svg: renderGraphSvg,
  mermaid: renderGraphMermaid,
  json: renderGraphJson,
};

/** Prints a graph view in a format. Deterministic: the same view gives the same text. */
export async function renderGraph(view: GraphView, format: GraphFormat): Promise<string> {
  return RENDERERS[format](view);
}
