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

import { labelSelectorQuery } from '../../controllers/label-selector-query.js';
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
 * namespace on a cluster-scoped kind, none on a namespaced kind of a cluster-scoped instance
 * (but for an `externalCollection`, which then lists every namespace), a label or an annotation
 * of kro's.
 */
export function templateConstraintProblems(
  id: string,
  template: Readonly<Record<string, unknown>>,
  namespaced: boolean,
  instanceNamespaced: boolean,
  externalCollection = false,
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
    // An external collection without a namespace lists every namespace.
    !externalCollection &&
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

/**
 * What is wrong with an `externalRef`'s metadata (kro's `ExternalRefMetadata`): it names one
 * resource (`name`) or selects a collection (`selector`), exactly one of the two; a selector
 * is checked here (a `${...}` string as some string value) as apimachinery's `LabelSelectorAsSelector` would refuse it
 * when the instance reconciles.
 */
export function externalRefMetadataProblem(
  named: boolean,
  selector: unknown,
): TemplateProblem | undefined {
  if (named && selector !== undefined) {
    return {
      path: ['metadata'],
      message:
        'an externalRef has exactly one of metadata.name or metadata.selector, as kro requires',
    };
  }
  if (!named && selector === undefined) {
    return {
      path: [],
      message:
        'an externalRef names apiVersion, kind and metadata.name (or metadata.selector, for a collection)',
    };
  }
  if (selector === undefined || typeof selector === 'string') return undefined;
  const literal = withExpressionsAs(selector, 'x');
  if (literal === undefined) return undefined;
  const query = labelSelectorQuery(literal);
  return 'error' in query
    ? { path: ['metadata', 'selector'], message: `invalid label selector: ${query.error}` }
    : undefined;
}

/** The fields of a label selector that hold a list or a mapping, not a string. */
const SELECTOR_COLLECTIONS = new Set(['matchLabels', 'matchExpressions', 'values']);

/**
 * `value` with each string holding `${...}` replaced by `stand`; `undefined` when such a string
 * stands for an operator, a list or a mapping (what it renders to decides the rest).
 */
function withExpressionsAs(value: unknown, stand: string): unknown {
  if (typeof value === 'string') return value.includes('${') ? stand : value;
  if (Array.isArray(value)) {
    const items = value.map((item) => withExpressionsAs(item, stand));
    return items.includes(undefined) ? undefined : items;
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const expression = typeof item === 'string' && item.includes('${');
    if (expression && (key === 'operator' || SELECTOR_COLLECTIONS.has(key))) return undefined;
    const replaced = withExpressionsAs(item, stand);
    if (replaced === undefined && item !== undefined) return undefined;
    out[key.includes('${') ? stand : key] = replaced;
  }
  return out;
}
