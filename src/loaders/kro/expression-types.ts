/**
 * The CEL types an RGD expression's variables have when the RGD loads, for the compile-time type
 * check (`cel/type-check.ts`): `schema` from the instance's generated schema, a resource id from
 * its kind's schema (a list of it for a `forEach` resource), an iterator as its list's element.
 * Unlike a CRD rule's `self`, whatever a schema leaves open is `dyn` here, so nothing is said of
 * it: `x-kubernetes-preserve-unknown-fields`, an object without properties (the instance's
 * `metadata`), `additionalProperties: true`, an embedded resource, a kind without a schema.
 */

import { DYN, schemaCelType, type CelType } from '../cel/cel-types.js';
import { isSchemaNode, type SchemaNode } from '../schema-node.js';

/** The schema with every open node made a node without a type (`dyn`), by original node. */
const opened = new WeakMap<object, SchemaNode>();

/** A schema node the type check may not close: it says nothing of the fields it may have. */
function isOpen(node: SchemaNode): boolean {
  if (node['x-kubernetes-preserve-unknown-fields'] === true) return true;
  if (node['x-kubernetes-embedded-resource'] === true) return true;
  if (node.additionalProperties === true) return true;
  if (node.type !== 'object' || isSchemaNode(node.additionalProperties)) return false;
  return !isSchemaNode(node.properties) || Object.keys(node.properties).length === 0;
}

/** `node` with its open nodes replaced by `{}` (which the declared types make `dyn`). */
function openAsDyn(node: SchemaNode): SchemaNode {
  const known = opened.get(node);
  if (known !== undefined) return known;
  if (isOpen(node)) {
    const open: SchemaNode = {};
    opened.set(node, open);
    return open;
  }
  const copy: Record<string, unknown> = { ...node };
  // Set before the children: a schema that refers to itself becomes one that does too.
  opened.set(node, copy);
  if (isSchemaNode(node.properties)) {
    copy.properties = Object.fromEntries(
      Object.entries(node.properties).map(([name, property]) => [
        name,
        isSchemaNode(property) ? openAsDyn(property) : property,
      ]),
    );
  }
  if (isSchemaNode(node.items)) copy.items = openAsDyn(node.items);
  if (isSchemaNode(node.additionalProperties)) {
    copy.additionalProperties = openAsDyn(node.additionalProperties);
  }
  return copy;
}

/** Forgets the types made of `schema`, whose fields have changed (an RGD kind's status). */
export function forgetSchemaTypes(schema: SchemaNode): void {
  opened.delete(schema);
}

/** The CEL type of a value of `schema` as an RGD expression reads it; `dyn` when unknown. */
export function celTypeOfSchema(schema: SchemaNode | undefined): CelType {
  return schema === undefined ? DYN : (schemaCelType(openAsDyn(schema)) ?? DYN);
}

/** A list of `elem`. */
export function listOf(elem: CelType): CelType {
  return { kind: 'list', elem };
}

/** The element type of a list type; `dyn` for anything else. */
export function elementOf(type: CelType): CelType {
  return type.kind === 'list' ? type.elem : DYN;
}

/**
 * The OpenAPI type (`integer`, `array`, ...) a CEL value of `type` is written as, when it is
 * known for certain; undefined for `dyn`, `null`, optionals and types.
 */
export function schemaWordOf(type: CelType): string | undefined {
  switch (type.kind) {
    case 'bool':
      return 'boolean';
    case 'int':
    case 'uint':
      return 'integer';
    case 'double':
      return 'number';
    case 'string':
    case 'bytes':
    case 'duration':
    case 'timestamp':
      return 'string';
    case 'list':
      return 'array';
    case 'map':
    case 'object':
      return 'object';
    default:
      return undefined;
  }
}
