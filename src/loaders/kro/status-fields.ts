/**
 * kro's rules for `spec.schema.status` (pkg/graph/builder.go, inferStatusSchema and
 * buildInstanceNode): every field is an expression ("status fields without expressions are not
 * supported"), and each refers to the instance (`schema`) or a resource ("instance status field
 * must refer to a resource or schema"): a constant has no place in a status kro computes.
 */

import type { TemplateField } from '../../controllers/resource-graph.js';
import { isPlainObject } from '../manifest-document.js';

/** The paths of the leaves of the status that hold no `${...}` (a number, `hello`, `true`). */
export function fieldsWithoutExpressions(
  status: unknown,
  path: (string | number)[] = [],
): (string | number)[][] {
  if (Array.isArray(status)) {
    return status.flatMap((item, i) => fieldsWithoutExpressions(item, [...path, i]));
  }
  if (isPlainObject(status)) {
    return Object.entries(status).flatMap(([key, value]) =>
      fieldsWithoutExpressions(value, [...path, key]),
    );
  }
  if (status === undefined || (typeof status === 'string' && status.includes('${'))) return [];
  return [path];
}

/** The status fields whose expressions reference neither `schema` nor a resource. */
export function fieldsReferringToNothing(fields: readonly TemplateField[]): TemplateField[] {
  return fields.filter((field) =>
    field.parts.every((part) => typeof part === 'string' || part.references.length === 0),
  );
}
