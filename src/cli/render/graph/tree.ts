import { pointerKey } from '../../../engine/resource/pointer.js';
import type { DependencyEdge } from '../../../engine/runtime/dependency-graph.js';
import { edgeSummary, inputTarget, resourceLabel, viaLabel, writerLabel } from './graph-labels.js';
import { compareStrings } from '../../../engine/compare-strings.js';
import { directedEdges, nodeKey, type GraphNode } from './graph-node.js';
import type { GraphView, InstanceNode } from './graph-view.js';
import type { ResourceNode } from '../../../app/explain/resource-lineage.js';
import type { ResourceGraphDag } from '../../../app/declared-controllers.js';

/** One node to print: its label, and a key that says when it repeats. */
interface TreeItem {
  readonly key: string;
  readonly label: string;
  /**
   * A controller reached from a type it writes (a builder's `owns`, an RGD reading the nested
   * instances it writes): met again on the path, it reads what it writes, not a cycle.
   */
  readonly readsOwn?: boolean;
}

type Children = (key: string) => readonly TreeItem[];

/**
 * The graph as an ASCII tree in the direction data flows, like `kubectl tree`: from the types no
 * controller writes (and controllers that read nothing), type -> the controllers reading it ->
 * the types they write, with the edge kind in brackets. A node already on the path is marked
 * `(cycle)`, or `(reads what it writes)` for a controller reached from a type it writes (not a
 * cycle, as `-o text` says), and one printed before `(see above)`; none is expanded again. Each
 * kro RGD's resources follow in render order. Past {@link TREE_MAX_DEPTH}
 * levels a node is marked `(continued below)` and its subtree follows the tree. With `--resources`
 * a second tree follows each resource to those derived from it.
 */
export function renderGraphTree(view: GraphView): string {
  const sections = [typeTree(view), ...(view.resourceGraphs ?? []).map(renderOrderTree)];
  if (view.resources) sections.push(resourceTree(view));
  return sections.filter((s) => s !== '').join('\n');
}

function typeTree(view: GraphView): string {
  const out = new Map<string, { node: GraphNode; edge: DependencyEdge }[]>();
  const hasIncoming = new Set<string>();
  /** `controller\0type` of each output edge. */
  const writes = new Set<string>();
  for (const { from, to, edge } of directedEdges(view)) {
    if (from.kind === 'controller') writes.add(`${nodeKey(from)}\0${nodeKey(to)}`);
    const list = out.get(nodeKey(from));
    if (list) list.push({ node: to, edge });
    else out.set(nodeKey(from), [{ node: to, edge }]);
    hasIncoming.add(nodeKey(to));
  }
  const queued = new Set(
    view.controllers.filter((c) => c.kind === 'qcontroller').map((c) => c.name),
  );
  const all: GraphNode[] = [
    ...view.types.map((name) => ({ kind: 'type' as const, name })),
    ...view.controllers.map((c) => ({ kind: 'controller' as const, name: c.name })),
  ];
  const failed = new Set(view.failedControllers ?? []);
  const mark = (n: GraphNode): string =>
    n.kind === 'controller' && failed.has(n.name) ? '  (failed)' : '';
  const labels = new Map(
    all.map((n) => [
      nodeKey(n),
      (queued.has(n.name) && n.kind === 'controller' ? `${n.name}  (queue controller)` : n.name) +
        mark(n),
    ]),
  );
  const children: Children = (key) => {
    const sorted = [...(out.get(key) ?? [])].sort(
      (a, b) =>
        compareStrings(a.node.name, b.node.name) ||
        compareStrings(inputTarget(a.edge), inputTarget(b.edge)),
    );
    // One child per node and edge kind: an input declared in several namespaces (an RGD's
    // primary input in each namespace that holds instances) lists them in one bracket.
    const merged = new Map<string, { node: GraphNode; edges: DependencyEdge[] }>();
    for (const { node, edge } of sorted) {
      const at = `${nodeKey(node)}\0${edge.kind}`;
      const same = merged.get(at);
      if (same) same.edges.push(edge);
      else merged.set(at, { node, edges: [edge] });
    }
    return [...merged.values()].map(({ node, edges }) => ({
      key: nodeKey(node),
      label: `${node.name}  [${edgesSummary(edges)}]${mark(node)}`,
      ...(node.kind === 'controller' && writes.has(`${nodeKey(node)}\0${key}`)
        ? { readsOwn: true }
        : {}),
    }));
  };
  const roots = all
    .filter((n) => !hasIncoming.has(nodeKey(n)))
    .map((n) => ({ key: nodeKey(n), label: labels.get(nodeKey(n)) ?? n.name }));
  const rest = all.map((n) => ({ key: nodeKey(n), label: labels.get(nodeKey(n)) ?? n.name }));
  return printForest(roots, rest, children);
}

/** `primary, default, team-a`: the edges' kind once, then each one's namespace (and id). */
function edgesSummary(edges: readonly DependencyEdge[]): string {
  const [first, ...rest] = edges;
  if (first === undefined) return '';
  const places = rest.flatMap((e) => edgeSummary(e).split(', ').slice(1));
  return [edgeSummary(first), ...places].join(', ');
}

/**
 * A kro RGD's resources in render order, as the DOT cluster draws them: each under the first
 * resource it references (the others named, `also after ...`), those that reference none under
 * the controller.
 */
function renderOrderTree(dag: ResourceGraphDag): string {
  const root = `rgd:${dag.controller}`;
  const key = (id: string): string => `${root}\0${id}`;
  const childrenOf = new Map<string, TreeItem[]>();
  for (const r of dag.resources) {
    const [first, ...others] = r.dependsOn;
    const parent = first === undefined ? root : key(first);
    const notes = [...(others.length > 0 ? [`also after ${others.join(', ')}`] : []), ...r.notes];
    const item = {
      key: key(r.id),
      label: `${r.id}  ${r.type}${notes.length > 0 ? `  (${notes.join('; ')})` : ''}`,
    };
    const list = childrenOf.get(parent);
    if (list) list.push(item);
    else childrenOf.set(parent, [item]);
  }
  const top = { key: root, label: `${dag.controller}: resources in render order` };
  return printForest([top], [], (k) => childrenOf.get(k) ?? []);
}

function resourceTree(view: GraphView): string {
  const nodes = (view.resources ?? []).flatMap((g) => g.resources);
  const visible = new Set(nodes.map((n) => pointerKey(n)));
  const parentOf = (node: ResourceNode) => node.derivedFrom.find((s) => visible.has(pointerKey(s)));
  const childrenOf = new Map<string, ResourceNode[]>();
  for (const node of nodes) {
    const parent = parentOf(node);
    if (!parent) continue;
    const list = childrenOf.get(pointerKey(parent));
    if (list) list.push(node);
    else childrenOf.set(pointerKey(parent), [node]);
  }
  const item = (node: InstanceNode): TreeItem => {
    const parent = parentOf(node);
    const others = node.derivedFrom
      .filter((s) => s !== parent)
      .map((s) => `, also from ${resourceLabel(s)} [${viaLabel(s.via)}]`)
      .join('');
    const phase = node.phase === 'running' ? '' : `  (${node.phase})`;
    const failed = node.failed === true ? '  (failed)' : '';
    const via = parent ? ` [${viaLabel(parent.via)}]` : '';
    return {
      key: pointerKey(node),
      label: `${resourceLabel(node)}  ${writerLabel(node)}${via}${others}${phase}${failed}`,
    };
  };
  const children: Children = (key) => (childrenOf.get(key) ?? []).map(item);
  const roots = nodes.filter((n) => !parentOf(n)).map(item);
  return `Resources\n${printForest(roots, nodes.map(item), children)}`;
}

/**
 * How many levels a tree indents before it continues below: past it a long lineage (a chain of
 * thousands) would cost the depth in columns on every line, quadratic output.
 */
export const TREE_MAX_DEPTH = 40;

/** A node to print, or the end of one's children (it leaves the path). */
type Step =
  | { readonly item: TreeItem; readonly prefix: string; readonly branch: string; depth: number }
  | { readonly leave: string };

/**
 * Prints a tree from each root, then from the first node not printed yet until every node is
 * (nodes only reachable through a cycle have no root of their own). Iterative, so that a chain
 * of any depth prints; a node at {@link TREE_MAX_DEPTH} with children is marked `(continued
 * below)` and its subtree printed after the tree, from the left margin again.
 */
function printForest(
  roots: readonly TreeItem[],
  all: readonly TreeItem[],
  children: Children,
): string {
  const lines: string[] = [];
  const printed = new Set<string>();
  /** Prints the tree of `root`; returns the nodes it left to continue below. */
  const walk = (root: TreeItem, continued: boolean): TreeItem[] => {
    const later: TreeItem[] = [];
    const path = new Set<string>();
    const steps: Step[] = [{ item: root, prefix: '', branch: '', depth: 0 }];
    for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
      if ('leave' in step) {
        path.delete(step.leave);
        continue;
      }
      const { item, prefix, branch, depth } = step;
      const kids = children(item.key);
      let marker = '';
      if (continued && depth === 0) marker = '  (continued from above)';
      else if (path.has(item.key))
        marker = item.readsOwn === true ? '  (reads what it writes)' : '  (cycle)';
      else if (printed.has(item.key) && kids.length > 0) marker = '  (see above)';
      else if (depth >= TREE_MAX_DEPTH && kids.length > 0) {
        marker = '  (continued below)';
        later.push(item);
      }
      lines.push(`${prefix}${branch}${item.label}${marker}`);
      if (marker !== '' && !(continued && depth === 0)) continue;
      printed.add(item.key);
      path.add(item.key);
      steps.push({ leave: item.key });
      const childPrefix = prefix + (branch === '' ? '' : branch === '├─ ' ? '│  ' : '   ');
      // The last child pushed first, so that the first is printed first.
      for (let i = kids.length - 1; i >= 0; i--) {
        const branch = i === kids.length - 1 ? '└─ ' : '├─ ';
        steps.push({ item: kids[i] as TreeItem, prefix: childPrefix, branch, depth: depth + 1 });
      }
    }
    return later;
  };
  const print = (root: TreeItem): void => {
    const queue = walk(root, false);
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      if (!printed.has(item.key)) queue.push(...walk(item, true));
    }
  };
  for (const root of roots) print(root);
  for (const item of all) if (!printed.has(item.key)) print(item);
  return lines.map((l) => `${l}\n`).join('');
}
