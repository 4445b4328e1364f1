/**
 * `spec.preserveUnknownFields: true`, which an `apiextensions.k8s.io/v1` CRD may not set: it was
 * `v1beta1`'s default (keep every field the schema does not declare), and CRDs converted
 * mechanically from `v1beta1` still carry it, but the API server refuses a new CRD with it
 * (`validatePreserveUnknownFields`), and says so twice more when the CRD also has defaults in a
 * schema or a conversion strategy other than None (`ValidateCustomResourceDefinitionSpec`). A
 * stored CRD that has it (from before v1) may keep it on an update, defaults and conversion
 * still refused; its objects are then not pruned.
 * Keeping unknown fields is said per node, with `x-kubernetes-preserve-unknown-fields: true`.
 */

import { isPlainObject } from '../manifest-document.js';
import { invalidValue } from './go-field-error.js';

/** One refusal, at a JSON pointer in the CRD document. */
export interface SpecProblem {
  readonly pointer: string;
  readonly message: string;
}

/**
 * Whether the API server lets a CRD keep `spec.preserveUnknownFields: true`: only on an update
 * of a stored CRD that has it (`validatePreserveUnknownFields` leaves such an update alone, for
 * the objects stored under it), never on a create nor to turn it on.
 */
export function keepsPreserveUnknownFields(
  spec: { readonly preserveUnknownFields?: unknown },
  stored: Readonly<Record<string, unknown>> | undefined,
): boolean {
  return (
    spec.preserveUnknownFields === true &&
    isPlainObject(stored?.spec) &&
    stored.spec.preserveUnknownFields === true
  );
}

/**
 * Why the API server refuses a CRD's `spec.preserveUnknownFields`; empty when it does not.
 * `stored`: the CRD this one updates (the previous revision's), if any.
 */
export function preserveUnknownFieldsProblems(
  spec: Record<string, unknown>,
  stored?: Readonly<Record<string, unknown>>,
): SpecProblem[] {
  if (spec.preserveUnknownFields !== true) return [];
  const pointer = '/spec/preserveUnknownFields';
  const problems: SpecProblem[] = keepsPreserveUnknownFields(spec, stored)
    ? []
    : [
        {
          pointer,
          message: invalidValue(
            true,
            'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
          ),
        },
      ];
  const versions = Array.isArray(spec.versions) ? (spec.versions as unknown[]) : [];
  if (versions.some((version) => hasDefault(openApiSchemaOf(version)))) {
    problems.push({
      pointer,
      message: invalidValue(true, 'must be false in order to use defaults in the schema'),
    });
  }
  const strategy = isPlainObject(spec.conversion) ? spec.conversion.strategy : undefined;
  if (typeof strategy === 'string' && strategy !== 'None') {
    problems.push({
      pointer: '/spec/conversion/strategy',
      message: invalidValue(strategy, 'must be None if spec.preserveUnknownFields is true'),
    });
  }
  return problems;
}

function openApiSchemaOf(version: unknown): unknown {
  if (!isPlainObject(version) || !isPlainObject(version.schema)) return undefined;
  return version.schema.openAPIV3Schema;
}

/** Keywords holding one schema, a list of schemas, or schemas by name (`SchemaHas` follows each). */
const ONE = ['items', 'not', 'additionalProperties'];
const LIST = ['items', 'allOf', 'anyOf', 'oneOf'];
const BY_NAME = ['properties', 'patternProperties', 'dependencies', 'definitions'];

/** Whether any node of a schema has a `default` (null is none, as Go decodes it). */
function hasDefault(node: unknown): boolean {
  if (!isPlainObject(node)) return false;
  if (node.default !== undefined && node.default !== null) return true;
  if (ONE.some((keyword) => hasDefault(node[keyword]))) return true;
  for (const keyword of LIST) {
    const list = node[keyword];
    if (Array.isArray(list) && list.some(hasDefault)) return true;
  }
  for (const keyword of BY_NAME) {
    const named = node[keyword];
    if (isPlainObject(named) && Object.values(named).some(hasDefault)) return true;
  }
  return false;
}
