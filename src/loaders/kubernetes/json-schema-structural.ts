/**
 * A kind's JSON Schema, as kubeconform's tools write it, read back as the CRD schema it was made
 * from, so that documents are checked as the CRD would check them (defaults, formats, CEL rules,
 * unknown fields). `openapi2jsonschema.py` (kubeconform's, and datreeio/CRDs-catalog's copy
 * of it) makes a CRD version's `openAPIV3Schema` a JSON Schema by:
 *
 * - closing every object with `properties`: `additionalProperties: false` (the CRD's schema leaves
 *   them open and the API server prunes unknown fields; cosi reports them as it does for a CRD,
 *   as kubectl's strict field validation refuses them, with the nearest declared name);
 * - writing `format: int-or-string` as `oneOf: [{type: string}, {type: integer}]`;
 *
 * and other generators write a nullable type as `type: [T, "null"]`. Each is turned back, and a
 * root with properties and no type (older CRDs') is an object; the rest is kept as it is. A root
 * `$schema` or `$id` only names the dialect: it is dropped.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { defineOwn } from '../../engine/resource/plain-data.js';
import { isPlainObject } from '../manifest-document.js';

/** Keywords whose value is one subschema. */
const ONE_SCHEMA = new Set(['items', 'additionalProperties', 'not']);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);

/** The CRD schema a JSON Schema of a kind was made from (a copy; `schema` is not changed). */
export function structuralSchemaOf(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  const root = node(rest);
  // Older CRDs (apiextensions v1beta1) left the root's type out; a kind's object is one.
  return root.type === undefined && isPlainObject(root.properties)
    ? { ...root, type: 'object' }
    : root;
}

function node(schema: Record<string, unknown>): JsonSchema {
  if (isIntOrStringOneOf(schema.oneOf)) {
    const { oneOf: _oneOf, ...rest } = schema;
    return { ...copyKeywords(rest), 'x-kubernetes-int-or-string': true };
  }
  const out = copyKeywords(schema);
  if (out.additionalProperties === false && isPlainObject(out.properties)) {
    delete out.additionalProperties;
  }
  // `type: [T, "null"]` is OpenAPI's `type: T, nullable: true`; other lists stay (and are refused).
  if (Array.isArray(out.type)) {
    const types: unknown[] = out.type;
    const nonNull = types.filter((t) => t !== 'null');
    if (nonNull.length === 1) {
      out.type = nonNull[0];
      if (nonNull.length < types.length) out.nullable = true;
    }
  }
  return out;
}

/** The keywords of a schema node, its subschemas turned back too. */
function copyKeywords(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isPlainObject(value)) {
      const properties: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) {
        defineOwn(properties, name, isPlainObject(sub) ? node(sub) : sub);
      }
      out[key] = properties;
    } else if (ONE_SCHEMA.has(key) && isPlainObject(value)) {
      out[key] = node(value);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = (value as unknown[]).map((sub) => (isPlainObject(sub) ? node(sub) : sub));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** `oneOf: [{type: string}, {type: integer}]` in either order, nothing else in them. */
function isIntOrStringOneOf(value: unknown): boolean {
  if (!Array.isArray(value) || value.length !== 2) return false;
  const types = value.map((sub) =>
    isPlainObject(sub) && Object.keys(sub).length === 1 ? sub.type : undefined,
  );
  return types.includes('string') && types.includes('integer');
}
