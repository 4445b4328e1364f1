import type { DependencyGraph } from '../../../engine/runtime/dependency-graph.js';
import { isDestroyReadyKind } from './edge-style.js';
import { compareStrings } from '../../../engine/compare-strings.js';
import { directedEdges, nodeKey, type GraphNode } from './graph-node.js';

/**
 * The feedback loops of a graph: for each strongly connected part, one shortest cycle through its
 * first node (by name), as the nodes along it, the first repeated at the end. destroyReady
 * inputs are left out: they wake a controller on teardown, not on data, and a controller that
 * reads its own outputs that way is the ordinary cleanup pattern, not a loop. So is a controller
 * reading a type it writes (a builder's `owns`, an RGD reading the status of the nested
 * instances it writes): it reconciles what it manages, and a loop is between controllers.
 */
export function findCycles(graph: DependencyGraph): GraphNode[][] {
  const nodes = new Map<string, GraphNode>();
  const next = new Map<string, GraphNode[]>();
  const edges = [...directedEdges(graph)].filter(({ edge }) => !isDestroyReadyKind(edge.kind));
  const written = new Set(
    edges.filter(({ from }) => from.kind === 'controller').map(({ from, to }) => pairKey(from, to)),
  );
  for (const { from, to } of edges) {
    // A type's edge into a controller that writes that type: the controller reads its own.
    if (to.kind === 'controller' && written.has(pairKey(to, from))) continue;
    nodes.set(nodeKey(from), from);
    nodes.set(nodeKey(to), to);
    const list = next.get(nodeKey(from));
    if (list) list.push(to);
    else next.set(nodeKey(from), [to]);
  }

  const cycles: GraphNode[][] = [];
  for (const component of stronglyConnected([...nodes.values()], next)) {
    const first = [...component].sort(compareNodes)[0];
    if (first === undefined) continue;
    const members = new Set(component.map(nodeKey));
    const cycle = shortestCycle(first, next, members);
    if (cycle) cycles.push(cycle);
  }
  return cycles.sort((a, b) => compareNodes(a[0] as GraphNode, b[0] as GraphNode));
}

const pairKey = (from: GraphNode, to: GraphNode): string => `${nodeKey(from)}\u0001${nodeKey(to)}`;

function compareNodes(a: GraphNode, b: GraphNode): number {
  return compareStrings(a.name, b.name) || compareStrings(a.kind, b.kind);
}

/** Tarjan's algorithm, iterative so a long chain cannot overflow the stack. */
function stronglyConnected(
  nodes: readonly GraphNode[],
  next: ReadonlyMap<string, readonly GraphNode[]>,
): GraphNode[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: GraphNode[] = [];
  const components: GraphNode[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(nodeKey(root))) continue;
    const work: { node: GraphNode; child: number }[] = [{ node: root, child: 0 }];
    index.set(nodeKey(root), counter);
    low.set(nodeKey(root), counter++);
    stack.push(root);
    onStack.add(nodeKey(root));
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: GraphNode; child: number };
      const key = nodeKey(frame.node);
      const children = next.get(key) ?? [];
      const child = children[frame.child++];
      if (child !== undefined) {
        const childKey = nodeKey(child);
        if (!index.has(childKey)) {
          index.set(childKey, counter);
          low.set(childKey, counter++);
          stack.push(child);
          onStack.add(childKey);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(childKey)) {
          low.set(key, Math.min(low.get(key) as number, index.get(childKey) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) {
        const parentKey = nodeKey(parent.node);
        low.set(parentKey, Math.min(low.get(parentKey) as number, low.get(key) as number));
      }
      if (low.get(key) !== index.get(key)) continue;
      const component: GraphNode[] = [];
      for (let member = stack.pop(); member; member = stack.pop()) {
        onStack.delete(nodeKey(member));
        component.push(member);
        if (nodeKey(member) === key) break;
      }
      const selfLoop = (next.get(key) ?? []).some((n) => nodeKey(n) === key);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  }
  return components;
}

/** Breadth-first inside one component, so the loop printed is the shortest through `start`. */
function shortestCycle(
  start: GraphNode,
  next: ReadonlyMap<string, readonly GraphNode[]>,
  members: ReadonlySet<string>,
): GraphNode[] | undefined {
  const startKey = nodeKey(start);
  const parent = new Map<string, GraphNode>();
  const queue: GraphNode[] = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as GraphNode;
    const sorted = [...(next.get(nodeKey(node)) ?? [])].sort(compareNodes);
    for (const child of sorted) {
      const key = nodeKey(child);
      if (key === startKey) {
        const path = [start];
        for (let at: GraphNode | undefined = node; at && nodeKey(at) !== startKey;) {
          path.splice(1, 0, at);
          at = parent.get(nodeKey(at));
        }
        return [...path, start];
      }
      if (!members.has(key) || parent.has(key)) continue;
      parent.set(key, node);
      queue.push(child);
    }
  }
  return undefined;
}
