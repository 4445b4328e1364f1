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
 * instances it writes): it reconciles what it manages, and a loop is between controllers. A type
 * that another controller writes too (a shared output) still leads into it: the loop
 * `A -> T -> B -> T -> A` of two controllers that each read the other's items of the type they
 * share is one, but the step back `A -> T -> A` never is.
 */
export function findCycles(graph: DependencyGraph): GraphNode[][] {
  const nodes = new Map<string, GraphNode>();
  const next = new Map<string, GraphNode[]>();
  const edges = [...directedEdges(graph)].filter(({ edge }) => !isDestroyReadyKind(edge.kind));
  const written = new Set(
    edges.filter(({ from }) => from.kind === 'controller').map(({ from, to }) => pairKey(from, to)),
  );
  const writers = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (from.kind !== 'controller') continue;
    const set = writers.get(nodeKey(to));
    if (set) set.add(nodeKey(from));
    else writers.set(nodeKey(to), new Set([nodeKey(from)]));
  }
  for (const { from, to } of edges) {
    // A type's edge into a controller that alone writes that type: the controller reads its own.
    const onlyWriter = (writers.get(nodeKey(from))?.size ?? 0) === 1;
    if (to.kind === 'controller' && written.has(pairKey(to, from)) && onlyWriter) continue;
    nodes.set(nodeKey(from), from);
    nodes.set(nodeKey(to), to);
    const list = next.get(nodeKey(from));
    if (list) list.push(to);
    else next.set(nodeKey(from), [to]);
  }

  const cycles: GraphNode[][] = [];
  for (const component of stronglyConnected([...nodes.values()], next)) {
    const members = new Set(component.map(nodeKey));
    // Through its first node (by name) that lies on a loop: a part can hold a step back
    // (A -> T -> A) that is none.
    for (const first of [...component].sort(compareNodes)) {
      const cycle = shortestCycle(first, next, members);
      if (!cycle) continue;
      cycles.push(cycle);
      break;
    }
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

/**
 * The shortest loop through `start` inside one component, breadth-first, that never steps from a
 * type straight back to the controller it came from (`A -> T -> A`: A reading what it writes).
 */
function shortestCycle(
  start: GraphNode,
  next: ReadonlyMap<string, readonly GraphNode[]>,
  members: ReadonlySet<string>,
): GraphNode[] | undefined {
  if (start.kind === 'controller') return shortestPath(start, start, next, members);
  // A loop through a type leaves it for one controller and comes back from another.
  let best: GraphNode[] | undefined;
  for (const first of [...(next.get(nodeKey(start)) ?? [])].sort(compareNodes)) {
    if (!members.has(nodeKey(first))) continue;
    const path = shortestPath(first, start, next, members, nodeKey(first));
    if (path && (!best || path.length + 1 < best.length)) best = [start, ...path];
  }
  return best;
}

/** A step of the search: a node, and for a type the controller it was reached from. */
interface Step {
  readonly node: GraphNode;
  readonly from: string;
  readonly parent?: Step;
}

/**
 * The shortest path from `from` to `to` (from a controller back to itself: a loop) inside
 * `members`, with no step back from a type to the controller it came from; `notLastFrom`: the
 * controller the last step into `to` may not come from.
 */
function shortestPath(
  from: GraphNode,
  to: GraphNode,
  next: ReadonlyMap<string, readonly GraphNode[]>,
  members: ReadonlySet<string>,
  notLastFrom?: string,
): GraphNode[] | undefined {
  const toKey = nodeKey(to);
  const seen = new Set<string>();
  const queue: Step[] = [{ node: from, from: '' }];
  for (let i = 0; i < queue.length; i++) {
    const step = queue[i] as Step;
    const key = nodeKey(step.node);
    const sorted = [...(next.get(key) ?? [])].sort(compareNodes);
    for (const child of sorted) {
      const childKey = nodeKey(child);
      if (step.node.kind === 'type' && childKey === step.from) continue;
      if (childKey === toKey && key !== notLastFrom) {
        const path = [child];
        for (let at: Step | undefined = step; at; at = at.parent) path.unshift(at.node);
        return path;
      }
      if (!members.has(childKey)) continue;
      const came = child.kind === 'type' ? key : '';
      const state = `${childKey}\u0002${came}`;
      if (seen.has(state)) continue;
      seen.add(state);
      queue.push({ node: child, from: came, parent: step });
    }
  }
  return undefined;
}
