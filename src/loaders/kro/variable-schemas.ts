/** The schemas an RGD's expressions read their variables by, when they run. */

import type { JsonSchema, ResourceDefinition } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaNode } from '../schema-node.js';
import type { VariableSchemas } from './graph-cel.js';

/**
 * The schemas an RGD's expressions read their variables by, as kro's runtime wraps them
 * (`UnstructuredToVal` with each node's schema): `schema` by the instance's type without its
 * status (kro strips it), each resource id by its kind's (a list of them for a forEach or
 * external collection), looked up when an expression runs (every kind is known by then).
 */
export function variableSchemas(
  instance: ResourceDefinition,
  kindOf: ReadonlyMap<string, { definition: ResourceDefinition; list: boolean }>,
): VariableSchemas {
  let instanceSchema: SchemaNode | undefined;
  const lists = new Map<string, SchemaNode>();
  return (name) => {
    if (name === 'schema') {
      instanceSchema ??= withoutStatus(instance.schema);
      return instanceSchema;
    }
    const kind = kindOf.get(name);
    const schema = kind?.definition.schema;
    if (schema === undefined || kind?.list !== true) return schema;
    let list = lists.get(name);
    if (list?.items !== schema) {
      list = { type: 'array', items: schema };
      lists.set(name, list);
    }
    return list;
  };
}

/** An object schema without its `status` property. */
function withoutStatus(schema: JsonSchema | undefined): SchemaNode | undefined {
  if (schema === undefined || !isPlainObject(schema.properties)) return schema;
  const properties = Object.entries(schema.properties).filter(([name]) => name !== 'status');
  return { ...schema, properties: Object.fromEntries(properties) };
}
