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

const withRules = new WeakMap<object, boolean>();

/**
 * Whether a schema holds `x-kubernetes-validations` at a node the rules are compiled from (the
 * root, `properties`, `items`, `additionalProperties`, as `compileRules` walks it). Without,
 * there is nothing to compile or evaluate.
 */
export function schemaHasRules(schema: object): boolean {
  let has = withRules.get(schema);
  if (has === undefined) {
    has = walkForRules(schema, new Set());
    withRules.set(schema, has);
  }
  return has;
}

function walkForRules(node: unknown, seen: Set<object>): boolean {
  if (!isSchemaNode(node) || seen.has(node)) return false;
  seen.add(node);
  if (node[VALIDATIONS_KEYWORD] !== undefined) return true;
  if (isSchemaNode(node.properties)) {
    for (const child of Object.values(node.properties)) if (walkForRules(child, seen)) return true;
  }
  // Rules below a junctor are never run, but are looked for: the compiler refuses them.
  for (const junctor of ['allOf', 'anyOf', 'oneOf', 'not']) {
    const sub = node[junctor];
    for (const child of Array.isArray(sub) ? (sub as unknown[]) : [sub]) {
      if (walkForRules(child, seen)) return true;
    }
  }
  return walkForRules(node.items, seen) || walkForRules(node.additionalProperties, seen);
}
