import { escapeControlLines } from '../escape-control.js';
import { EDGE_LEGEND, STATUS_LEGEND } from './edge-style.js';
import {
  failedKeys,
  layoutGraph,
  type DrawnCluster,
  type DrawnEdge,
  type Drawing,
  type DrawnNode,
  type Endpoint,
} from './drawing.js';
import type { GraphView } from './graph-view.js';
import { svgKeyId } from './svg-key-id.js';
import type { ResourceGraphDag } from '../../../app/declared-controllers.js';

/**
 * A DOT string literal, its control characters written out (`\x1b`) but for line breaks, and
 * `&` as `&amp;`: Graphviz reads an entity in a label or name (`a&amp;b` showed as `a&b`).
 */
const quote = (text: string): string =>
  `"${escapeControlLines(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/&/g, '&amp;')}"`;

const NODE_ATTRIBUTES: Record<DrawnNode['kind'], string> = {
  controller: 'shape=box',
  type: 'shape=note, fillcolor=azure2, style=filled',
  resource: 'shape=note, fillcolor=white, style=filled',
};

const LINEAGE = 'color=gray50, arrowhead=empty, constraint=false';

/** A node that failed in the run: in the report's error red, as the report draws it. */
const FAILED = 'color="#b3171f", fontcolor="#b3171f", penwidth=2';

/** What a page that embeds the drawing adds to it. */
export interface DotOptions {
  /**
   * SVG classes of nodes, by node key (`resource:default/VMs.example.org/web-1`): Graphviz
   * adds them to the node's `<g class="node ...">`, for the page's style to mark them.
   */
  readonly classes?: ReadonlyMap<string, string>;
  /** Give each node and cluster an SVG id that carries its key exactly ({@link svgKeyId}). */
  readonly keyIds?: boolean;
  /**
   * Declare the nodes, the clusters and each cluster's resources last first, for a Graphviz
   * that lays a left-to-right graph's ranks out bottom up (the WebAssembly build cosi lays SVG
   * out with: `a; b; c` drew c on top), so that they read top down in their order: a type's
   * resources from a to z, as every listing of them. Graphviz 2.4x, as Debian ships it, lays
   * ranks out top down: the DOT output declares them first first, for it.
   */
  readonly lastFirst?: boolean;
}

/**
 * Graphviz DOT in the style of `talosctl inspect dependencies`: controllers are boxes (queue
 * controllers rounded), resource types notes, exclusive outputs bold, weak inputs dotted, pinned
 * ids as edge labels. With `--resources` each type is a cluster of its instances, and gray
 * hollow-headed edges follow the lineage. Renders with `dot -Tsvg`.
 */
export function renderGraphDot(view: GraphView, options: DotOptions = {}): string {
  const laidOut = layoutGraph(view);
  const drawing = options.lastFirst === true ? lastFirst(laidOut) : laidOut;
  const clusterId = (key: string): string[] =>
    options.keyIds === true ? [`    id=${quote(svgKeyId(key))};`] : [];
  const failed = failedKeys(view);
  const nodeStatement = (node: DrawnNode): string => {
    const shape = node.queue ? 'shape=box, style=rounded' : NODE_ATTRIBUTES[node.kind];
    const svgClass =
      options.classes?.get(node.key) ?? (failed.has(node.key) ? 'failed' : undefined);
    const extra =
      (failed.has(node.key) ? `, ${FAILED}` : '') +
      (svgClass === undefined ? '' : `, class=${quote(svgClass)}`) +
      (options.keyIds === true ? `, id=${quote(svgKeyId(node.key))}` : '');
    return `${quote(node.key)} [label=${quote(node.label)}, ${shape}${extra}];`;
  };
  const anchors = new Map(
    laidOut.clusters.map((c) => [c.key, c.resources[0]?.key ?? c.key] as const),
  );
  const lines = [
    'digraph "cosi" {',
    ...EDGE_LEGEND.map((l) => `  // ${l}`),
    ...(drawing.edges.some((e) => e.both === true) ? [`  // ${STATUS_LEGEND}`] : []),
    `  graph [rankdir=LR, fontname="Helvetica"${drawing.clusters.length > 0 ? ', compound=true' : ''}${packs(drawing) ? ', pack=true' : ''}];`,
    '  node [fontname="Helvetica"];',
    '  edge [fontname="Helvetica"];',
  ];
  if (drawing.nodes.length > 0) lines.push('');
  for (const node of drawing.nodes) lines.push(`  ${nodeStatement(node)}`);
  for (const cluster of drawing.clusters) {
    lines.push(
      '',
      `  subgraph ${quote(cluster.key)} {`,
      `    label=${quote(cluster.label)};`,
      ...clusterId(cluster.key),
      '    style=filled;',
      '    fillcolor=azure2;',
      ...namespaceClusters(cluster, nodeStatement, clusterId),
      '  }',
    );
  }
  if (drawing.edges.length > 0) lines.push('');
  for (const edge of drawing.edges) lines.push(`  ${edgeStatement(edge, anchors)}`);
  for (const dag of view.resourceGraphs ?? []) {
    lines.push('', ...dagCluster(dag, options.keyIds === true));
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/**
 * Whether Graphviz is to lay each connected part of the graph out apart and pack the parts side
 * by side. Unpacked, parts with no edge between them all stand in the first rank, one column: a
 * repository of Kubernetes manifests and no controller (every type its own part) was drawn
 * 7,000 points tall and 500 wide. A connected graph is laid out as it was. Not when an edge has
 * a label: Graphviz drops the labels of a packed graph's edges.
 */
function packs(drawing: Drawing): boolean {
  return drawing.edges.every((e) => e.label === undefined);
}

/** The drawing with its nodes, its clusters and each cluster's resources in reverse order. */
function lastFirst(drawing: Drawing): Drawing {
  return {
    nodes: [...drawing.nodes].reverse(),
    clusters: drawing.clusters
      .map((c) => ({ ...c, resources: [...c.resources].reverse() }))
      .reverse(),
    edges: drawing.edges,
  };
}

/**
 * An RGD's resources as a dashed cluster, an edge from each resource to those it waits for.
 * With `keyIds`, SVG ids that carry `rgd:CONTROLLER` (the cluster) and `rgd:CONTROLLER/ID` (a
 * resource): a page tells them from the types' clusters and opens the controller.
 */
function dagCluster(dag: ResourceGraphDag, keyIds: boolean): string[] {
  const key = (id: string): string => quote(`${dag.controller}/${id}`);
  const svgId = (k: string): string => (keyIds ? `, id=${quote(svgKeyId(k))}` : '');
  return [
    `  subgraph ${quote(`cluster_${dag.controller}`)} {`,
    `    label=${quote(`${dag.controller}: resources in render order`)};`,
    ...(keyIds ? [`    id=${quote(svgKeyId(`rgd:${dag.controller}`))};`] : []),
    '    style=dashed;',
    ...dag.resources.map(
      (r) =>
        `    ${key(r.id)} [label=${quote(`${r.id}\n${r.type}${r.notes.length > 0 ? `\n(${r.notes.join(', ')})` : ''}`)}, shape=ellipse${svgId(`rgd:${dag.controller}/${r.id}`)}];`,
    ),
    ...dag.resources.flatMap((r) => r.dependsOn.map((d) => `    ${key(d)} -> ${key(r.id)};`)),
    '  }',
  ];
}

/**
 * A type's instances; when they live in several namespaces, one nested cluster per namespace,
 * so that a large graph reads namespace by namespace.
 */
function namespaceClusters(
  cluster: DrawnCluster,
  nodeStatement: (node: DrawnNode) => string,
  clusterId: (key: string) => string[],
): string[] {
  const byNamespace = new Map<string, DrawnNode[]>();
  for (const r of cluster.resources) {
    const namespace = r.namespace ?? '';
    const list = byNamespace.get(namespace);
    if (list) list.push(r);
    else byNamespace.set(namespace, [r]);
  }
  if (byNamespace.size < 2) return cluster.resources.map((r) => `    ${nodeStatement(r)}`);
  return [...byNamespace].flatMap(([namespace, resources]) => [
    `    subgraph ${quote(`${cluster.key}/${namespace}`)} {`,
    `      label=${quote(namespace)};`,
    ...clusterId(`${cluster.key}/${namespace}`).map((line) => `  ${line}`),
    '      fillcolor=white;',
    ...resources.map((r) => `      ${nodeStatement(r)}`),
    '    }',
  ]);
}

/** Edges to a cluster end at its first resource, clipped at the cluster's border. */
function edgeStatement(edge: DrawnEdge, anchors: ReadonlyMap<string, string>): string {
  const end = (e: Endpoint): string =>
    'node' in e ? e.node : (anchors.get(e.cluster) ?? e.cluster);
  const attributes = [edge.line === 'lineage' ? LINEAGE : `style=${edge.line}`];
  if (edge.label !== undefined) attributes.push(`label=${quote(edge.label)}`);
  if (edge.both === true) attributes.push('dir=both');
  if ('cluster' in edge.from) attributes.push(`ltail=${quote(edge.from.cluster)}`);
  if ('cluster' in edge.to) attributes.push(`lhead=${quote(edge.to.cluster)}`);
  return `${quote(end(edge.from))} -> ${quote(end(edge.to))} [${attributes.join(', ')}];`;
}
