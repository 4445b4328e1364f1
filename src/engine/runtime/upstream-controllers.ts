import type { DependencyGraph } from './dependency-graph.js';

/**
 * For each controller, the controllers upstream of it: those whose outputs reach one of its
 * inputs, directly or through other controllers, and that it does not reach in turn. Controllers
 * on one cycle (each feeds the other) are not upstream of one another: neither may wait for the
 * other to finish.
 *
 * @example
 * // A writes Bs, which B reads: A is upstream of B.
 * upstreamControllers(runtime.dependencyGraph()).get('B'); // Set { 'A' }
 */
export function upstreamControllers(graph: DependencyGraph): Map<string, ReadonlySet<string>> {
  const readers = new Map<string, Set<string>>();
  const writes = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (edge.kind === 'exclusive' || edge.kind === 'shared') {
      let types = writes.get(edge.controller);
      if (!types) writes.set(edge.controller, (types = []));
      types.push(edge.type);
    } else {
      let names = readers.get(edge.type);
      if (!names) readers.set(edge.type, (names = new Set()));
      names.add(edge.controller);
    }
  }
  /** Who reads what each controller writes (itself excluded). */
  const feeds = new Map<string, Set<string>>();
  for (const { name } of graph.controllers) {
    const fed = new Set<string>();
    for (const type of writes.get(name) ?? []) {
      for (const reader of readers.get(type) ?? []) if (reader !== name) fed.add(reader);
    }
    feeds.set(name, fed);
  }
  /** Every controller each one reaches, through any number of feeds. */
  const reaches = new Map<string, Set<string>>();
  for (const { name } of graph.controllers) {
    const seen = new Set<string>();
    const stack = [...(feeds.get(name) ?? [])];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(feeds.get(next) ?? []));
    }
    reaches.set(name, seen);
  }
  const upstream = new Map<string, Set<string>>();
  for (const { name } of graph.controllers) upstream.set(name, new Set());
  for (const [from, reached] of reaches) {
    for (const to of reached) {
      if (to !== from && !reaches.get(to)?.has(from)) upstream.get(to)?.add(from);
    }
  }
  return upstream;
}
