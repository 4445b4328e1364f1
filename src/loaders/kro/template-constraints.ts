/**
 * kro's rules on names and templates that hold whatever the expressions say
 * (pkg/graph/validation.go):
 *
 * - the words a resource id or a forEach iterator may not be (`kroReservedKeyWords` and CEL's
 *   reserved symbols): kro refuses "id items is a reserved keyword in KRO";
 * - a template of a cluster-scoped kind sets no `metadata.namespace`, and one of a namespaced
 *   kind sets it when the instance is cluster-scoped (`spec.schema.scope: Cluster`): there is
 *   no instance namespace to inherit;
 * - labels and annotations under `kro.run/` and `internal.kro.run/` are kro's own.
 */

import { CEL_RESERVED_WORDS } from '../cel/property-escaping.js';
import { isPlainObject } from '../manifest-document.js';

/** kro's reserved words (validation.go `reservedKeyWords`): not an id, nor an iterator. */
export const KRO_RESERVED_WORDS: ReadonlySet<string> = new Set([
  // kroReservedKeyWords
  'apiVersion',
  'context',
  'dependency',
  'dependencies',
  'each',
  'externalRef',
  'externalReference',
  'externalRefs',
  'externalReferences',
  'graph',
  'instance',
  'item',
  'items',
  'kind',
  'kro',
  'metadata',
  'namespace',
  'object',
  'resource',
  'resourcegraphdefinition',
  'resourceGraphDefinition',
  'resources',
  'root',
  'runtime',
  'schema',
  'self',
  'serviceAccountName',
  'spec',
  'status',
  'this',
  'variables',
  'vars',
  'version',
  // celReservedSymbols
  ...CEL_RESERVED_WORDS,
]);

/** The label and annotation prefixes kro keeps for itself (pkg/metadata/prefixes.go). */
const KRO_PREFIXES = ['kro.run/', 'internal.kro.run/'];

/** A problem of a template, at the path (below the template) where it is. */
export interface TemplateProblem {
  readonly path: readonly string[];
  readonly message: string;
}

/**
 * What kro's validateTemplateConstraints refuses in the template of resource `id` of a kind
 * that is `namespaced` or not, in an RGD whose instances are `instanceNamespaced` or not: a
 * namespace on a cluster-scoped kind, none on a namespaced kind of a cluster-scoped instance,
 * a label or an annotation of kro's.
 */
export function templateConstraintProblems(
  id: string,
  template: Readonly<Record<string, unknown>>,
  namespaced: boolean,
  instanceNamespaced: boolean,
): TemplateProblem[] {
  const metadata = isPlainObject(template.metadata) ? template.metadata : {};
  const problems: TemplateProblem[] = [];
  if (!namespaced && metadata.namespace !== undefined) {
    problems.push({
      path: ['metadata', 'namespace'],
      message: `resource ${JSON.stringify(id)} is cluster-scoped and must not set metadata.namespace`,
    });
  }
  const namespace = metadata.namespace;
  if (
    namespaced &&
    !instanceNamespaced &&
    (typeof namespace !== 'string' || namespace.trim() === '')
  ) {
    problems.push({
      path: namespace === undefined ? [] : ['metadata', 'namespace'],
      message: `resource ${JSON.stringify(id)} is namespaced and must set metadata.namespace when the instance CRD is cluster-scoped`,
    });
  }
  for (const field of ['labels', 'annotations'] as const) {
    const entries = isPlainObject(metadata[field]) ? Object.keys(metadata[field]) : [];
    for (const key of entries) {
      const prefix = KRO_PREFIXES.find((p) => key.startsWith(p));
      if (prefix === undefined) continue;
      problems.push({
        path: ['metadata', field, key],
        message: `invalid ${field.slice(0, -1)} ${JSON.stringify(key)} for resource ${JSON.stringify(id)}: ${field} with prefix ${JSON.stringify(prefix)} are reserved for kro's internal use`,
      });
    }
  }
  return problems;
}
