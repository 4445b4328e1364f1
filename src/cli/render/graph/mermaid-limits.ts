import { layoutGraph } from './drawing.js';
import type { GraphView } from './graph-view.js';

/**
 * Mermaid's default limits, which GitHub keeps: a flowchart of more edges (`maxEdges`) or a
 * longer text (`maxTextSize`) is not drawn, only an error is.
 */
export const MERMAID_MAX_EDGES = 500;
export const MERMAID_MAX_TEXT = 50_000;

/**
 * The warning for a Mermaid flowchart over Mermaid's default limits, saying how to draw less;
 * none when it fits. The text is still written: a page that raised the limits draws it.
 */
export function mermaidSizeWarning(view: GraphView, text: string): string | undefined {
  const edges = layoutGraph(view).edges.length;
  const over: string[] = [];
  if (edges > MERMAID_MAX_EDGES)
    over.push(`${count(edges)} edges (limit ${count(MERMAID_MAX_EDGES)})`);
  if (text.length > MERMAID_MAX_TEXT) {
    over.push(`${count(text.length)} characters (limit ${count(MERMAID_MAX_TEXT)})`);
  }
  if (over.length === 0) return undefined;
  return (
    `warning: -o mermaid: ${over.join(', ')}: more than Mermaid (and GitHub) draws by default; ` +
    'draw part of it with --focus TYPE/ID --depth N (or -t TYPE, -c NAME), or write -o dot or -o svg'
  );
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
