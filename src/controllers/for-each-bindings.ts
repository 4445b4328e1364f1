/** A resource's `forEach`: the bindings of its iterators, one resource rendered per binding. */

import type { GraphNode } from './compiled-resource-graph.js';
import { describe, type Rendered } from './template-rendering.js';

/**
 * The most resources one forEach may stamp: kro's controller refuses a larger cartesian product
 * (pkg/runtime/collection.go, `--rgd-max-collection-size`, 1000 by default).
 */
export const MAX_COLLECTION_SIZE = 1000;

/** The iterator bindings of a resource: one empty binding without `forEach`. */
export function iterate(
  node: GraphNode,
  scope: Readonly<Record<string, unknown>>,
): { state: 'done'; value: Record<string, unknown>[] } | Exclude<Rendered, { state: 'done' }> {
  let combinations: Record<string, unknown>[] = [{}];
  for (const { name, expression } of node.forEach ?? []) {
    const outcome = expression.evaluate(scope);
    if ('missing' in outcome) {
      return { state: 'waiting', reason: `\${${expression.source}} (${outcome.missing})` };
    }
    if ('error' in outcome) {
      return {
        state: 'error',
        message: `\${${expression.source}} at ${expression.location}: ${outcome.error}`,
      };
    }
    const items = outcome.value;
    if (!Array.isArray(items)) {
      return {
        state: 'error',
        message: `forEach \${${expression.source}} at ${expression.location} must be a list, not ${describe(items)}`,
      };
    }
    const size = combinations.length * items.length;
    if (size > MAX_COLLECTION_SIZE) {
      return {
        state: 'error',
        message: `collection size of ${size} is over the maximum collection size of ${MAX_COLLECTION_SIZE} (kro's default --rgd-max-collection-size)`,
      };
    }
    combinations = combinations.flatMap((c) =>
      items.map((item: unknown) => ({ ...c, [name]: item })),
    );
  }
  return { state: 'done', value: combinations };
}
