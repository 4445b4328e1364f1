/**
 * Data that refers to itself: a spec is JSON data, which cannot hold a cycle, but an object
 * given from code can (`spec.self = spec`). The walks of `plain-data.ts` recurse, so such data
 * overflows the stack; this finds the cycle once it has, to say where it is instead.
 */

/** Where data refers to itself: the value at `at` is the object at `to`, which holds it. */
export interface DataCycle {
  /** JSON pointer of the reference that closes the cycle (`/self`). */
  readonly at: string;
  /** JSON pointer of the object it refers back to (`''`: the whole value). */
  readonly to: string;
}

/**
 * The first cycle in `value` (depth first, keys in order), or `undefined` when it has none.
 * Iterative: it must not overflow on the data that made the recursive walks overflow. An object
 * reached twice without a cycle (two keys sharing one object) is no cycle.
 */
export function findCycle(value: unknown): DataCycle | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  /** The objects on the path being walked, to their pointers. */
  const onPath = new Map<object, string>([[value, '']]);
  /** Objects whose whole content was walked and found acyclic. */
  const done = new Set<object>();
  const stack: { node: object; path: string; children: Iterator<[string, unknown]> }[] = [
    { node: value, path: '', children: childrenOf(value) },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as (typeof stack)[number];
    const next = top.children.next();
    if (next.done === true) {
      stack.pop();
      onPath.delete(top.node);
      done.add(top.node);
      continue;
    }
    const [key, child] = next.value;
    if (typeof child !== 'object' || child === null || done.has(child)) continue;
    const path = `${top.path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const to = onPath.get(child);
    if (to !== undefined) return { at: path, to };
    onPath.set(child, path);
    stack.push({ node: child, path, children: childrenOf(child) });
  }
  return undefined;
}

/** The own enumerable entries of an array or object, as the walks read them. */
function* childrenOf(node: object): Iterator<[string, unknown]> {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) yield [String(i), node[i]];
    return;
  }
  if (node instanceof Date) return;
  const record = node as Record<string, unknown>;
  for (const key in record)
    if (Object.prototype.hasOwnProperty.call(record, key)) yield [key, record[key]];
}

/** How a cycle is said: `the value at /self is the object at / again`. */
export function describeCycle(cycle: DataCycle): string {
  return `the value at ${cycle.at} is the object at ${cycle.to || '/'} again, which holds it`;
}

/**
 * What to throw for `error`, thrown by a recursive walk of `values`: a stack overflow caused by
 * a cycle becomes a `TypeError` saying where the cycle is (as `JSON.stringify` refuses circular
 * data with one); anything else is thrown as it was.
 */
export function explainOverflow(error: unknown, ...values: readonly unknown[]): unknown {
  if (!(error instanceof RangeError)) return error;
  for (const value of values) {
    const cycle = findCycle(value);
    if (cycle === undefined) continue;
    return new TypeError(
      `data that refers to itself cannot be copied or stored: ${describeCycle(cycle)} (a resource's spec is JSON data, which holds no cycles)`,
    );
  }
  return error;
}
