import type { Explanation } from '../../../app/explain/explain-resource.js';
import type { LineageNode } from '../../../app/explain/lineage.js';
import { versionKey } from '../../../engine/record/run-record.js';
import { versionRefText } from '../scoped-pointer.js';
import { originText } from './explain-tree.js';

/**
 * `cosi explain -o dot`: the lineage (and with `--reverse` what it feeds) as a Graphviz graph,
 * one node per resource version, edges from source to what was made of it, labelled with why.
 */
export function renderExplainDot(explanation: Explanation): string {
  const nodes = new Map<string, string>();
  const edges = new Set<string>();
  const node = (n: LineageNode): string => {
    const id = JSON.stringify(versionKey(n.ref));
    const label = versionRefText({ ...n.ref, clusterScoped: n.clusterScoped === true });
    nodes.set(id, `${label}\n${originText(n.origin)}`);
    return id;
  };
  const back = (n: LineageNode): void => {
    const to = node(n);
    for (const edge of n.edges) {
      edges.add(`  ${node(edge.node)} -> ${to} [label=${JSON.stringify(edge.kind)}];`);
      back(edge.node);
    }
  };
  const forward = (n: LineageNode): void => {
    const from = node(n);
    for (const edge of n.edges) {
      edges.add(`  ${from} -> ${node(edge.node)} [label=${JSON.stringify(edge.kind)}];`);
      forward(edge.node);
    }
  };
  if (explanation.lineage) back(explanation.lineage);
  if (explanation.feeds) forward(explanation.feeds);
  const lines = ['digraph explain {', '  rankdir=LR;', '  node [shape=box];'];
  for (const [id, label] of [...nodes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(`  ${id} [label=${JSON.stringify(label)}];`);
  }
  lines.push(...[...edges].sort(), '}');
  return `${lines.join('\n')}\n`;
}
