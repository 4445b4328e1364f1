/**
 * The status schema kro infers for an RGD's instance kind (pkg/graph/builder.go
 * `inferStatusSchema`, pkg/graph/schema `GenerateSchemaFromCELTypes`, pkg/graph/crd
 * `SetCRDStatus`): each field of `spec.schema.status` gets the OpenAPI schema of its expression's
 * CEL type (a string template is a string: kro builds it as a concatenation), placed at its path;
 * `state` and `conditions` are kro's own unless the RGD writes them. What kro cannot type is left
 * open as kro leaves it: `dyn` (and a type kro has no schema for: an optional, a duration) is
 * `x-kubernetes-preserve-unknown-fields`, a list of `dyn` a list of such, a map of `dyn` a map of
 * such.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import type { CelType } from '../cel/cel-types.js';

/** kro's `conditions` of an instance's status (pkg/graph/crd/defaults.go). */
export const CONDITIONS_SCHEMA: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      type: { type: 'string' },
      status: { type: 'string' },
      reason: { type: 'string' },
      message: { type: 'string' },
      lastTransitionTime: { type: 'string' },
      observedGeneration: { type: 'integer' },
    },
  },
};

/** kro's `state` of an instance's status. */
export const STATE_SCHEMA: JsonSchema = { type: 'string' };

const ANY: JsonSchema = { 'x-kubernetes-preserve-unknown-fields': true };

/** The OpenAPI schema kro writes for a value of a CEL type. */
export function schemaOfCelType(type: CelType): JsonSchema {
  switch (type.kind) {
    case 'bool':
      return { type: 'boolean' };
    case 'int':
    case 'uint':
      return { type: 'integer' };
    case 'double':
      return { type: 'number' };
    case 'string':
      return { type: 'string' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'list':
      return { type: 'array', items: schemaOfCelType(type.elem) };
    case 'map':
      return { type: 'object', additionalProperties: schemaOfCelType(type.value) };
    case 'object':
      return {
        type: 'object',
        properties: Object.fromEntries(
          [...type.fields].map(([name, field]) => [name, schemaOfCelType(field)]),
        ),
      };
    default:
      return ANY;
  }
}

/** A status field: its path under `status` and its value's schema. */
export interface StatusField {
  readonly path: readonly (string | number)[];
  readonly schema: JsonSchema;
}

type MutableSchema = Record<string, unknown>;

/** The instance's status schema: the fields at their paths, with kro's `state` and `conditions`. */
export function instanceStatusSchema(fields: readonly StatusField[]): JsonSchema {
  const root: MutableSchema = { type: 'object', properties: {} };
  for (const field of fields) place(root, field.path, field.schema);
  const properties = root.properties as MutableSchema;
  properties.state ??= STATE_SCHEMA;
  properties.conditions ??= CONDITIONS_SCHEMA;
  return root;
}

/** Writes `leaf` at `path` below `node`, making the objects and lists on the way. */
function place(node: MutableSchema, path: readonly (string | number)[], leaf: JsonSchema): void {
  const [key, ...rest] = path;
  if (key === undefined) return;
  if (typeof key === 'number') {
    node.type = 'array';
    delete node.properties;
    if (rest.length === 0) {
      node.items = leaf;
      return;
    }
    const items = isMutable(node.items) ? node.items : {};
    node.items = items;
    place(items, rest, leaf);
    return;
  }
  node.type ??= 'object';
  const properties = isMutable(node.properties) ? node.properties : {};
  node.properties = properties;
  if (rest.length === 0) {
    properties[key] = leaf;
    return;
  }
  const child = isMutable(properties[key]) ? properties[key] : {};
  properties[key] = child;
  place(child, rest, leaf);
}

function isMutable(value: unknown): value is MutableSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
