/**
 * Large generated schemas repeat themselves: a CRD made by controller-gen writes a container, a
 * volume or a pod template out in full at every field of that type (argo-workflows' Workflow has
 * 14,822 schema nodes, of which 1,516 differ). ajv compiles every copy, in time and memory in
 * proportion to the text. Here each repeated subschema of some size is written once under
 * `definitions` and referred to by `$ref` at every field that holds it, so that ajv compiles it
 * once (the Workflow: 1.4 s to about 0.3 s). The checks are the same; what changes is where a
 * problem's `schemaPath` starts: inside a shared subschema it starts at that subschema, which
 * {@link schemaAppliedAt} finds again from the value's path.
 *
 * Only fields are shared (`properties`, `additionalProperties`, `items`), never a branch of
 * `anyOf` and the like, so every `$ref` is reached by descending the value; and only in a schema
 * with no `$ref`, `$id` or `definitions` of its own, whose names cannot meet cosi's.
 */

import type { JsonSchema } from '../engine/resource/definition.js';
import { childSchema, isSchemaNode, type SchemaNode } from './schema-node.js';

/** Below this many keywords (counted through its subschemas) a subschema is compiled in place. */
const MIN_SHARED_KEYWORDS = 8;

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = new Set([
  'additionalProperties',
  'additionalItems',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf']);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependencies']);
/** Keywords that name or refer to schemas: a schema with one is compiled as it is. */
const REFERENCE_KEYWORDS = new Set(['$ref', '$id', 'id', '$schema', 'definitions', '$defs']);

/** Roots made here, which hold shared subschemas under `definitions`. */
const sharedRoots = new WeakSet<object>();

/** Whether `schema` is one of {@link shareRepeatedSubschemas}' results. */
export function hasSharedSubschemas(schema: unknown): schema is JsonSchema {
  return typeof schema === 'object' && schema !== null && sharedRoots.has(schema);
}

interface Shape {
  /** Equal for subschemas that are equal, key order included (it orders ajv's errors). */
  readonly id: number;
  /** Keywords counted through the subschemas, as ajv counts them to inline a `$ref`. */
  readonly keywords: number;
}

/**
 * The schema with every subschema that is held by two fields or more, and is not small, moved
 * under `definitions`; `undefined` when nothing repeats or the schema has references of its own.
 */
export function shareRepeatedSubschemas(schema: JsonSchema): JsonSchema | undefined {
  const shapes = new Map<object, Shape>();
  const ids = new Map<string, number>();
  const fields = new Map<number, number>();
  const shapeOf = (node: SchemaNode): Shape | undefined => {
    const known = shapes.get(node);
    if (known !== undefined) return known;
    let keywords = 0;
    const parts: string[] = [];
    const child = (value: unknown): string | undefined => {
      if (!isSchemaNode(value)) return JSON.stringify(value);
      const shape = shapeOf(value);
      if (shape === undefined) return undefined;
      keywords += shape.keywords;
      return `#${shape.id}`;
    };
    for (const [key, value] of Object.entries(node)) {
      if (REFERENCE_KEYWORDS.has(key)) return undefined;
      keywords++;
      let part: string | undefined;
      if (SCHEMA_KEYWORDS.has(key)) part = child(value);
      else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
        const items = value.map(child);
        part = items.includes(undefined) ? undefined : items.join(',');
      } else if (SCHEMA_MAP_KEYWORDS.has(key) && isSchemaNode(value)) {
        const entries = Object.entries(value).map(([name, item]) => {
          const shape = child(item);
          return shape === undefined ? undefined : `${JSON.stringify(name)}:${shape}`;
        });
        part = entries.includes(undefined) ? undefined : entries.join(',');
      } else part = JSON.stringify(value);
      if (part === undefined) return undefined;
      parts.push(`${JSON.stringify(key)}:${part}`);
    }
    const signature = parts.join(';');
    let id = ids.get(signature);
    if (id === undefined) ids.set(signature, (id = ids.size));
    const shape = { id, keywords };
    shapes.set(node, shape);
    return shape;
  };
  if (shapeOf(schema) === undefined) return undefined;

  // How many fields hold each shape.
  forEachField(schema, (field) => {
    const id = (shapes.get(field) as Shape).id;
    fields.set(id, (fields.get(id) ?? 0) + 1);
  });
  const shared = (node: SchemaNode): Shape | undefined => {
    const shape = shapes.get(node) as Shape;
    return shape.keywords >= MIN_SHARED_KEYWORDS && (fields.get(shape.id) ?? 0) > 1
      ? shape
      : undefined;
  };

  const definitions: Record<string, JsonSchema> = {};
  const names = new Map<number, string>();
  const place = (field: SchemaNode): SchemaNode => {
    const shape = shared(field);
    if (shape === undefined) return withFieldsPlaced(field, place);
    let name = names.get(shape.id);
    if (name === undefined) {
      name = `shared-${names.size}`;
      names.set(shape.id, name);
      definitions[name] = withFieldsPlaced(field, place);
    }
    return { $ref: `#/definitions/${name}` };
  };
  const root = withFieldsPlaced(schema, place);
  if (names.size === 0) return undefined;
  const result = { ...root, definitions } as JsonSchema;
  sharedRoots.add(result);
  return result;
}

/** Calls `visit` with every field's schema below `node` (`properties`, `additionalProperties`, `items`). */
function forEachField(node: SchemaNode, visit: (field: SchemaNode) => void): void {
  const descend = (field: unknown): void => {
    if (!isSchemaNode(field)) return;
    visit(field);
    forEachField(field, visit);
  };
  if (isSchemaNode(node.properties)) Object.values(node.properties).forEach(descend);
  descend(node.additionalProperties);
  descend(node.items);
}

/** A copy of `node` whose fields' schemas are what `place` makes of them. */
function withFieldsPlaced(node: SchemaNode, place: (field: SchemaNode) => SchemaNode): SchemaNode {
  const out: Record<string, unknown> = { ...node };
  if (isSchemaNode(node.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(node.properties).map(([name, field]) => [
        name,
        isSchemaNode(field) ? place(field) : field,
      ]),
    );
  }
  if (isSchemaNode(node.additionalProperties)) {
    out.additionalProperties = place(node.additionalProperties);
  }
  if (isSchemaNode(node.items)) out.items = place(node.items);
  return out;
}

/**
 * The schema that applies at `depth` segments into `value` (of the path `segments`), found
 * from `root` (one of {@link shareRepeatedSubschemas}' results) by descending fields and
 * following shared subschemas' `$ref`s; `undefined` when no field leads there.
 */
export function schemaAppliedAt(
  root: SchemaNode,
  value: unknown,
  segments: readonly string[],
  depth: number,
): SchemaNode | undefined {
  const definitions = root.definitions as Record<string, SchemaNode>;
  const resolve = (node: SchemaNode | undefined): SchemaNode | undefined => {
    const ref = node?.$ref;
    if (typeof ref !== 'string') return node;
    return definitions[ref.slice('#/definitions/'.length)];
  };
  let node: SchemaNode | undefined = root;
  let current = value;
  for (const segment of segments.slice(0, depth)) {
    const items = Array.isArray(current);
    node = resolve(childSchema(node, items ? 'items' : 'property', segment));
    if (node === undefined) return undefined;
    current =
      typeof current === 'object' && current !== null
        ? (current as Record<string, unknown>)[segment]
        : undefined;
  }
  return node;
}
