/**
 * What the API server's decoding of a CRD's schema into `JSONSchemaProps` leaves of it, which is
 * what it checks: a keyword written `null` is Go's zero value, the keyword left out (`anyOf: null`
 * beside `x-kubernetes-int-or-string`, as openshift/api's Route CRD writes it), and a schema
 * written `null` in `properties` is the empty schema. Below `items`, `additionalProperties` and
 * `dependencies`, whose values decode with their own non-strict `UnmarshalJSON`
 * (apiextensions/v1 `marshal.go`), a key that is no keyword is dropped, not refused, even by
 * kubectl's strict field validation (openshift/api's DNS CRD has an `optional:` there).
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';

/** The keywords of `JSONSchemaProps`, as written in JSON. */
const KEYWORDS = new Set([
  'id',
  '$schema',
  '$ref',
  'description',
  'type',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  'patternProperties',
  'dependencies',
  'additionalItems',
  'definitions',
  'externalDocs',
  'example',
  'nullable',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);
/** Keywords whose value is a schema, or a list of schemas. */
const SCHEMA_KEYWORDS = new Set(['not', 'items', 'additionalProperties', 'additionalItems']);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'oneOf', 'anyOf']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'definitions']);
/** Keywords decoded by a non-strict `UnmarshalJSON`: unknown keys below them are dropped. */
const LENIENT_KEYWORDS = new Set(['items', 'additionalProperties', 'dependencies']);

/**
 * `schema` as the API server decodes it; the same object when decoding changes nothing of it
 * (the usual case), so that a CRD's schema is copied only when it must be.
 */
export function decodedSchema(schema: JsonSchema): JsonSchema {
  return needsDecoding(schema, false) ? (decode(schema, false) as JsonSchema) : schema;
}

function needsDecoding(node: unknown, lenient: boolean): boolean {
  if (!isPlainObject(node)) return false;
  for (const [key, value] of Object.entries(node)) {
    if (value === null) return true;
    if (lenient && !KEYWORDS.has(key)) return true;
    const below = lenient || LENIENT_KEYWORDS.has(key);
    if (SCHEMA_KEYWORDS.has(key) && needsDecoding(value, below)) return true;
    if (SCHEMA_LIST_KEYWORDS.has(key) || (key === 'items' && Array.isArray(value))) {
      if (Array.isArray(value) && value.some((item) => needsDecoding(item, below))) return true;
    }
    if (SCHEMA_MAP_KEYWORDS.has(key) || key === 'dependencies') {
      if (isPlainObject(value)) {
        for (const child of Object.values(value)) {
          if (child === null || needsDecoding(child, below)) return true;
        }
      }
    }
  }
  return false;
}

function decode(node: unknown, lenient: boolean): unknown {
  if (!isPlainObject(node)) return node;
  const decoded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === null || (lenient && !KEYWORDS.has(key))) continue;
    const below = lenient || LENIENT_KEYWORDS.has(key);
    if (SCHEMA_KEYWORDS.has(key) && !Array.isArray(value)) {
      decoded[key] = decode(value, below);
    } else if (SCHEMA_LIST_KEYWORDS.has(key) || (key === 'items' && Array.isArray(value))) {
      decoded[key] = Array.isArray(value) ? value.map((item) => decode(item, below)) : value;
    } else if (SCHEMA_MAP_KEYWORDS.has(key) || key === 'dependencies') {
      decoded[key] = isPlainObject(value)
        ? Object.fromEntries(
            Object.entries(value).map(([name, child]) => [
              name,
              // A schema written null decodes as the empty schema; a dependency's list of
              // names is kept as it is.
              child === null ? {} : Array.isArray(child) ? child : decode(child, below),
            ]),
          )
        : value;
    } else {
      decoded[key] = value;
    }
  }
  return decoded;
}
