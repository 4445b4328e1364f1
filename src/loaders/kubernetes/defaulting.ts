/**
 * The API server's structural defaulting of a custom resource, before it is validated: a
 * property's `default` fills it in where the object holding it exists (parents are not created),
 * recursively into what was filled in; a `null` where the schema is not `nullable` is replaced by
 * the default, or dropped when there is none; a `null` that is `nullable` stays.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';

/**
 * Applies the schema's defaults to a value, in place (callers pass a copy), and returns it.
 *
 * @example
 * applyDefaults({ spec: {} }, { type: 'object', properties: { spec: { type: 'object',
 *   properties: { replicas: { type: 'integer', default: 1 } } } } })
 * // { spec: { replicas: 1 } }
 */
export function applyDefaults(value: unknown, schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return value;
  if (isPlainObject(value)) {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    const additional = isPlainObject(schema.additionalProperties)
      ? schema.additionalProperties
      : undefined;
    for (const [key, property] of Object.entries(properties)) {
      if (!isPlainObject(property)) continue;
      if (!Object.prototype.hasOwnProperty.call(value, key)) {
        if (hasDefault(property)) value[key] = structuredClone(property.default);
      } else {
        value[key] = defaultNull(value, key, property);
      }
    }
    for (const key of Object.keys(value)) {
      const property = Object.prototype.hasOwnProperty.call(properties, key)
        ? properties[key]
        : additional;
      if (!isPlainObject(property)) continue;
      if (property === additional) value[key] = defaultNull(value, key, property);
      if (value[key] === undefined) Reflect.deleteProperty(value, key);
      else applyDefaults(value[key], property);
    }
  } else if (Array.isArray(value) && isPlainObject(schema.items)) {
    const items = schema.items;
    for (let i = 0; i < value.length; i++) {
      // A null list item without a default stays: the schema then reports it.
      if (value[i] === null && !isNullable(items) && hasDefault(items)) {
        value[i] = structuredClone(items.default);
      }
      applyDefaults(value[i], items);
    }
  }
  return value;
}

/** The value of `object[key]` after null handling: kept, defaulted, or `undefined` (dropped). */
function defaultNull(object: Record<string, unknown>, key: string, schema: JsonSchema): unknown {
  const current = object[key];
  if (current !== null || isNullable(schema)) return current;
  return hasDefault(schema) ? structuredClone(schema.default) : undefined;
}

function hasDefault(schema: JsonSchema): boolean {
  return Object.prototype.hasOwnProperty.call(schema, 'default') && schema.default !== null;
}

function isNullable(schema: JsonSchema): boolean {
  return schema.nullable === true;
}
