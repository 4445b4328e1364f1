/**
 * The API server's pruning of a custom resource, as findings: a field its structural schema does
 * not declare would be dropped on the way in (and `kubectl apply` refuses it with strict field
 * validation), so it is reported where it is written instead of vanishing.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { createSuggestionBudget, type Suggest } from '../did-you-mean.js';
import { MAX_FINDINGS_PER_DOCUMENT } from '../document-finding-limit.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-compiler.js';

/** Fields every object at the root (or an embedded resource) has, whatever the schema says. */
const RESOURCE_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Fields of `value` that `schema` does not declare, each a problem at its key. `metadata` of the
 * root and of embedded resources is left alone: Kubernetes checks it by its own rules. `resource`:
 * `value` is a resource (a document, or a default of an embedded resource), whose `apiVersion`,
 * `kind` and `metadata` need no declaring.
 */
export function findUnknownFields(
  value: unknown,
  schema: JsonSchema,
  resource = true,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  // A document shows its first findings only: the rest need no "did you mean".
  walk(value, schema, [], resource, {
    problems,
    suggest: createSuggestionBudget(MAX_FINDINGS_PER_DOCUMENT),
  });
  return problems;
}

/** The problems found so far, and the suggestions left to make for them. */
interface Found {
  readonly problems: SchemaProblem[];
  readonly suggest: Suggest;
}

/**
 * `kept`: the value sits where the API server keeps unknown fields whatever its own schema says:
 * the items of an array that preserves them (its pruning skips the array and, with it, each
 * item's unknown keys, while it still prunes below their declared properties).
 */
function walk(
  value: unknown,
  schema: JsonSchema,
  path: string[],
  resource: boolean,
  found: Found,
  kept = false,
): void {
  // A value of another type than its schema's is that type error alone: none of its keys is
  // an unknown field (`replicas: { count: 2 }` is no integer, not a field "count" dropped).
  if (!admits(schema, Array.isArray(value) ? 'array' : isPlainObject(value) ? 'object' : '')) {
    return;
  }
  const preserve = kept || schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (Array.isArray(value)) {
    if (isPlainObject(schema.items)) {
      const items = schema.items;
      value.forEach((item, i) => walk(item, items, [...path, String(i)], false, found, preserve));
    }
    return;
  }
  if (!isPlainObject(value)) return;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const additional = schema.additionalProperties;
  const embedded = resource || schema['x-kubernetes-embedded-resource'] === true;
  let names: string[] | undefined;
  const declaredNames = (): string[] => (names ??= Object.keys(properties));
  for (const [key, item] of Object.entries(value)) {
    if (embedded && RESOURCE_FIELDS.has(key)) {
      const declared = properties[key];
      if (key !== 'metadata' && isPlainObject(declared)) {
        walk(item, declared, [...path, key], false, found);
      }
      continue;
    }
    const declared = Object.prototype.hasOwnProperty.call(properties, key)
      ? properties[key]
      : additional;
    if (isPlainObject(declared)) {
      walk(item, declared, [...path, key], false, found);
    } else if (declared !== true && !preserve) {
      const guess = found.suggest(key, declaredNames);
      found.problems.push({
        path: jsonPointer([...path, key]),
        part: 'key',
        keyword: 'unknown-field',
        message: `unknown field ${JSON.stringify(key)}${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}: the schema does not declare it, so kubectl refuses it (strict field validation, its default) and the API server alone would drop it`,
      });
    }
  }
}

/** Whether a schema takes a value of this JSON type (`''`: a scalar, which has no fields). */
function admits(schema: JsonSchema, type: 'array' | 'object' | ''): boolean {
  if (type === '') return true;
  if (schema['x-kubernetes-int-or-string'] === true) return false;
  const declared = schema.type;
  if (declared === undefined) return true;
  return Array.isArray(declared) ? declared.includes(type) : declared === type;
}
