import { escapeControlLines } from '../escape-control.js';
import { EDGE_LEGEND, STATUS_LEGEND, type EdgeLine } from './edge-style.js';
import { failedKeys, layoutGraph, type DrawnNode, type Endpoint } from './drawing.js';
import type { GraphView } from './graph-view.js';

/** Mermaid ids allow letters, digits and `_` only; each key gets a readable, unique one. */
class MermaidIds {
  readonly #ids = new Map<string, string>();
  readonly #used = new Set<string>();

  /** `c_`, `t_` or `r_` (controller, type, resource) and the name with other characters as `_`. */
  id(key: string, prefix: string, name: string): string {
    const known = this.#ids.get(key);
    if (known !== undefined) return known;
    const base = `${prefix}_${name.replace(/[^A-Za-z0-9]+/g, '_')}`;
    let id = base;
    for (let n = 2; this.#used.has(id); n++) id = `${base}_${n}`;
    this.#ids.set(key, id);
    this.#used.add(id);
    return id;
  }
}

/**
 * A label in double quotes: Mermaid's entity code (`#60;`) for each character Mermaid or the HTML it renders to would read as markup: `"`
 * ends the label, `<...>` is a tag GitHub's sanitizer removes, `%%` starts a directive, `#` and
 * `&` start an entity, `\n` is a line break. Otherwise `default/<script>` and
 * `default/%%{init}%%` were both drawn as `default/`, and the id `a\nb` on two lines. Then
 * control characters written out (`\x1b`), as every human-readable output writes them.
 */
const label = (text: string): string =>
  `"${escapeControlLines(text.replace(/["<>%#&\\]/g, (c) => `#${c.charCodeAt(0)};`))}"`;

const SHAPES: Record<DrawnNode['kind'], (text: string) => string> = {
  controller: (t) => `[${label(t)}]`,
  type: (t) => `[(${label(t)})]`,
  resource: (t) => `[${label(t)}]`,
};

const ARROWS: Record<EdgeLine | 'lineage', string> = {
  bold: '==>',
  solid: '-->',
  dotted: '-.->',
  dashed: '-->',
  lineage: '-->',
};

/**
 * A Mermaid flowchart (left to right) that GitHub renders inline: controllers are rectangles
 * (queue controllers rounded), resource types cylinders, exclusive outputs thick, weak inputs
 * dotted, destroyReady inputs dashed, pinned ids as labels. With `--resources` each type is a
 * subgraph of its instances, and gray edges follow the lineage. Each kro RGD's resources are a
 * dashed subgraph, an edge from each to those rendered after it (as the DOT cluster).
 */
export function renderGraphMermaid(view: GraphView): string {
  const drawing = layoutGraph(view);
  const ids = new MermaidIds();
  const lines = ['flowchart LR', ...EDGE_LEGEND.map((l) => `  %% ${l}`)];
  if (drawing.edges.some((e) => e.both === true)) lines.push(`  %% ${STATUS_LEGEND}`);
  const typeIds: string[] = [];
  const resourceIds: string[] = [];
  const nodeId = (node: DrawnNode): string => ids.id(node.key, node.kind.charAt(0), node.name);
  const clusterId = (key: string, type: string): string => ids.id(key, 't', type);
  for (const node of drawing.nodes) {
    const id = nodeId(node);
    const shape = node.queue ? `(${label(node.label)})` : SHAPES[node.kind](node.label);
    lines.push(`  ${id}${shape}`);
    if (node.kind === 'type') typeIds.push(id);
  }
  const clusterIds = new Map<string, string>();
  for (const cluster of drawing.clusters) {
    const id = clusterId(cluster.key, cluster.label);
    clusterIds.set(cluster.key, id);
    lines.push(`  subgraph ${id}[${label(cluster.label)}]`);
    for (const r of cluster.resources) {
      const rid = nodeId(r);
      resourceIds.push(rid);
      lines.push(`    ${rid}${SHAPES.resource(r.label)}`);
    }
    lines.push('  end');
  }
  const byKey = new Map(
    [...drawing.nodes, ...drawing.clusters.flatMap((c) => c.resources)].map((n) => [n.key, n]),
  );
  const end = (e: Endpoint): string => {
    if ('cluster' in e) return clusterIds.get(e.cluster) ?? e.cluster;
    const node = byKey.get(e.node);
    return node ? nodeId(node) : e.node;
  };
  const dashed: number[] = [];
  const lineage: number[] = [];
  drawing.edges.forEach((edge, i) => {
    const text = edge.label === undefined ? '' : `|${label(edge.label)}|`;
    const arrow = edge.both === true ? `<${ARROWS[edge.line]}` : ARROWS[edge.line];
    lines.push(`  ${end(edge.from)} ${arrow}${text} ${end(edge.to)}`);
    if (edge.line === 'dashed') dashed.push(i);
    if (edge.line === 'lineage') lineage.push(i);
  });
  const dagIds: string[] = [];
  for (const dag of view.resourceGraphs ?? []) {
    // After the drawing's edges, so that their linkStyle indexes stay theirs.
    const id = ids.id(`rgd:${dag.controller}`, 'g', dag.controller);
    dagIds.push(id);
    const resourceId = (r: string): string =>
      ids.id(`rgd:${dag.controller}\0${r}`, 'g', `${dag.controller}_${r}`);
    lines.push(`  subgraph ${id}[${label(`${dag.controller}: resources in render order`)}]`);
    for (const r of dag.resources) {
      const notes = r.notes.length > 0 ? ` (${r.notes.join(', ')})` : '';
      lines.push(`    ${resourceId(r.id)}([${label(`${r.id}: ${r.type}${notes}`)}])`);
    }
    for (const r of dag.resources) {
      for (const d of r.dependsOn) lines.push(`    ${resourceId(d)} --> ${resourceId(r.id)}`);
    }
    lines.push('  end');
  }
  if (dashed.length > 0) lines.push(`  linkStyle ${dashed.join(',')} stroke-dasharray: 8 4`);
  if (lineage.length > 0) lines.push(`  linkStyle ${lineage.join(',')} stroke:#999`);
  if (typeIds.length > 0) {
    lines.push('  classDef type fill:#e0eeee,stroke:#5f7f7f', `  class ${typeIds.join(',')} type`);
  }
  for (const id of clusterIds.values()) lines.push(`  style ${id} fill:#e0eeee,stroke:#5f7f7f`);
  for (const id of dagIds) lines.push(`  style ${id} fill:none,stroke-dasharray: 5 5`);
  if (resourceIds.length > 0) {
    lines.push(
      '  classDef resource fill:#ffffff,stroke:#5f7f7f',
      `  class ${resourceIds.join(',')} resource`,
    );
  }
  // What failed in the run, in the report's error red (a later class wins in Mermaid).
  const failed = failedKeys(view);
  const failedIds = [...byKey.values()].filter((n) => failed.has(n.key)).map(nodeId);
  if (failedIds.length > 0) {
    lines.push(
      '  classDef failed stroke:#b3171f,stroke-width:3px,color:#b3171f',
      `  class ${failedIds.join(',')} failed`,
    );
  }
  return `${lines.join('\n')}\n`;
}
