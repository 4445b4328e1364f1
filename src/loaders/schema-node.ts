/**
 * The parts of a (structural) JSON Schema that CEL evaluation and ratcheting follow: a node's
 * type, its `properties`, `additionalProperties` and `items`, and the rules it carries.
 */

/** A schema object, read loosely: any JSON Schema, of which only a few keywords matter here. */
export interface SchemaNode {
  readonly type?: unknown;
  readonly properties?: unknown;
  readonly additionalProperties?: unknown;
  readonly items?: unknown;
  readonly format?: unknown;
  readonly 'x-kubernetes-validations'?: unknown;
  readonly 'x-kubernetes-list-type'?: unknown;
  readonly 'x-kubernetes-list-map-keys'?: unknown;
  readonly [keyword: string]: unknown;
}

/** The key under which rules live in a schema. */
export const VALIDATIONS_KEYWORD = 'x-kubernetes-validations';

export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The schema of a child: `items` of an array; for an object's key, its `properties` entry or
 * else `additionalProperties` (when that is a schema).
 */
export function childSchema(
  schema: SchemaNode | undefined,
  kind: 'items' | 'property',
  key = '',
): SchemaNode | undefined {
  if (schema === undefined) return undefined;
  if (kind === 'items') return isSchemaNode(schema.items) ? schema.items : undefined;
  const properties = schema.properties;
  if (isSchemaNode(properties) && Object.prototype.hasOwnProperty.call(properties, key)) {
    const property = (properties as Record<string, unknown>)[key];
    return isSchemaNode(property) ? property : undefined;
  }
  return isSchemaNode(schema.additionalProperties) ? schema.additionalProperties : undefined;
}
