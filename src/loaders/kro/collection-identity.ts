/**
 * kro's identity rule for a `forEach` resource (pkg/graph/builder.go, buildDependencyGraph):
 * every iterator must be used in `metadata.name`, or in `metadata.namespace` of a namespaced
 * kind, so that each item of the cartesian product is a resource of its own instead of
 * overwriting another ("all forEach dimensions must be used to produce a unique resource
 * identity").
 */

import type { TemplateField } from '../../controllers/resource-graph.js';

/** The iterators (in declaration order) that neither the name nor the namespace uses. */
export function iteratorsMissingFromIdentity(
  iterators: readonly string[],
  fields: readonly TemplateField[],
  namespaced: boolean,
): string[] {
  const used = new Set<string>();
  for (const field of fields) {
    const [first, second, ...rest] = field.path;
    if (first !== 'metadata' || rest.length > 0) continue;
    if (second !== 'name' && !(namespaced && second === 'namespace')) continue;
    for (const part of field.parts) {
      if (typeof part !== 'string') for (const ref of part.references) used.add(ref);
    }
  }
  return iterators.filter((name) => !used.has(name));
}
