/**
 * The order an RGD's resources are created in: by their references (Kahn's, ties by declaration
 * order: `topological-order.ts`); a cycle is refused at the first reference of its first
 * resource to the next.
 */

import { failAt, type GraphCompilation, type IndexedNode } from './graph-compilation.js';
import { kahnOrder } from './topological-order.js';

/** The nodes compiled, in the order kro creates them; a cycle refused (with the rest in order). */
export function creationOrder(c: GraphCompilation): IndexedNode[] {
  const { deps, report } = c;
  const order = kahnOrder(c.ids, deps);
  if (order.cycle.length > 0) {
    const cycle = order.cycle;
    const first = cycle[0] ?? '';
    const next = cycle.find((id) => deps.get(first)?.has(id)) ?? cycle[1] ?? first;
    const at = c.refAt.get(`${first}->${next}`) ?? report.location('/spec/resources');
    failAt(
      c,
      at,
      'rgd-cycle',
      `the resources ${cycle.join(', ')} reference each other in a cycle (${first} references ${next} here): kro needs an order to create them in`,
    );
  }
  const byId = new Map(c.nodes.map((n) => [n.id, n]));
  return order.order.flatMap((id) => {
    const node = byId.get(id);
    return node === undefined ? [] : [node];
  });
}
