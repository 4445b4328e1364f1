/**
 * The API server's structural defaulting of a custom resource, before it is validated: a
 * property's `default` fills it in where the object holding it exists (parents are not created),
 * recursively into what was filled in; a `null` where the schema is not `nullable` is replaced by
 * the default, or dropped when there is none; a `null` that is `nullable` stays.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { defineOwn } from '../../engine/resource/plain-data.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';

/**
 * Applies the schema's defaults to a value, in place (callers pass a copy), and returns it.
 *
 * @example
 * applyDefaults({ spec: {} }, { type: 'object', properties: { spec: { type: 'object',
 *   properties: { replicas: { type: 'integer', default: 1 } } } } })
 * // { spec: { replicas: 1 } }
 */
export function applyDefaults(
  value: unknown,
  schema: JsonSchema | undefined,
  /** When given, gets the JSON pointer of each value a default filled in (not those inside it). */
  filled?: string[],
): unknown {
  fillDefaults(value, schema, filled === undefined ? undefined : { filled, path: [] });
  return value;
}

/** Where the walk is, and what it has filled in so far; absent when nobody asked. */
interface FilledTrail {
  readonly filled: string[];
  readonly path: readonly string[];
}

function fillDefaults(value: unknown, schema: JsonSchema | undefined, trail?: FilledTrail): void {
  if (schema === undefined) return;
  if (isPlainObject(value)) {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    const additional = isPlainObject(schema.additionalProperties)
      ? schema.additionalProperties
      : undefined;
    const defaulted = new Set<string>();
    for (const [key, property] of Object.entries(properties)) {
      if (!isPlainObject(property)) continue;
      if (!Object.prototype.hasOwnProperty.call(value, key)) {
        if (hasDefault(property)) {
          defineOwn(value, key, structuredClone(property.default));
          defaulted.add(key);
        }
      } else {
        const before = value[key];
        value[key] = defaultNull(value, key, property);
        if (before === null && value[key] !== undefined && value[key] !== null) defaulted.add(key);
      }
    }
    for (const key of Object.keys(value)) {
      const property = Object.prototype.hasOwnProperty.call(properties, key)
        ? properties[key]
        : additional;
      if (!isPlainObject(property)) continue;
      if (property === additional) value[key] = defaultNull(value, key, property);
      if (value[key] === undefined) Reflect.deleteProperty(value, key);
      else if (trail !== undefined && defaulted.has(key)) {
        trail.filled.push(jsonPointer([...trail.path, key]));
        // What is inside a filled-in value is the default's too: not listed again.
        fillDefaults(value[key], property);
      } else fillDefaults(value[key], property, trail && inside(trail, key));
    }
  } else if (Array.isArray(value) && isPlainObject(schema.items)) {
    const items = schema.items;
    for (let i = 0; i < value.length; i++) {
      // A null list item without a default stays: the schema then reports it.
      if (value[i] === null && !isNullable(items) && hasDefault(items)) {
        value[i] = structuredClone(items.default);
        trail?.filled.push(jsonPointer([...trail.path, String(i)]));
        fillDefaults(value[i], items);
      } else fillDefaults(value[i], items, trail && inside(trail, String(i)));
    }
  }
}

function inside(trail: FilledTrail, key: string): FilledTrail {
  return { filled: trail.filled, path: [...trail.path, key] };
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
