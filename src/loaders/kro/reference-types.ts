/**
 * What an RGD expression that is a plain field path (`schema.spec.port`,
 * `deployment.status.availableReplicas`) reads, found in the schema of what it reads: the
 * instance's generated schema, or the kind of the resource it names. A path the schema says
 * cannot exist is refused when the RGD loads (the type of what it finds is then checked where
 * it goes, as every expression's: `expression-checks.ts`). Where a schema leaves fields open
 * (`x-kubernetes-preserve-unknown-fields`, a map without a value schema), nothing is said.
 */

import { childSchema, isSchemaNode, type SchemaNode } from '../schema-node.js';

/** `root.a.b` with plain names only: a path into what `root` names. */
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/** An expression's root variable and path, when it is a plain field path. */
export function fieldPathOf(source: string): { root: string; path: string[] } | undefined {
  if (!FIELD_PATH.test(source)) return undefined;
  const [root = '', ...path] = source.split('.');
  return { root, path };
}

/** Where a path leads in a schema. */
export type FieldLookup =
  | { readonly state: 'found'; readonly schema: SchemaNode }
  /** The schema does not say what is there (open fields, no schema). */
  | { readonly state: 'open' }
  /** The schema has no such field: at `path[index]`, among `known`. */
  | { readonly state: 'missing'; readonly index: number; readonly known: readonly string[] }
  /** `path[index]` selects a field of a value that has none (a string, a list): `schema`'s. */
  | { readonly state: 'not-an-object'; readonly index: number; readonly schema: SchemaNode };

/** The types of a value that has no fields to select. */
const FIELDLESS = new Set(['string', 'integer', 'number', 'boolean', 'array']);

/** Follows `path` (object keys; numbers are list items) from `schema`. */
export function lookupField(
  schema: SchemaNode | undefined,
  path: readonly (string | number)[],
): FieldLookup {
  let node = schema;
  for (const [index, key] of path.entries()) {
    if (node === undefined || node['x-kubernetes-preserve-unknown-fields'] === true) {
      return { state: 'open' };
    }
    if (typeof key === 'number') {
      node = childSchema(node, 'items');
      continue;
    }
    if (
      typeof node.type === 'string' &&
      FIELDLESS.has(node.type) &&
      node['x-kubernetes-int-or-string'] !== true
    ) {
      return { state: 'not-an-object', index, schema: node };
    }
    const next = childSchema(node, 'property', key);
    if (next === undefined) {
      const properties = isSchemaNode(node.properties) ? Object.keys(node.properties) : [];
      const closed =
        properties.length > 0 &&
        (node.additionalProperties === undefined || node.additionalProperties === false);
      return closed ? { state: 'missing', index, known: properties } : { state: 'open' };
    }
    node = next;
  }
  return node === undefined ? { state: 'open' } : { state: 'found', schema: node };
}
