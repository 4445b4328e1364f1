/**
 * The `default`s of a cosi type's JSON Schema, filled into a manifest's spec before it is
 * checked, as ajv's `useDefaults` and the API server's defaulting fill them: a property the
 * object leaves out gets its schema's `default` (a copy), where the object holding it exists
 * (parents are not created), and what was filled in is filled in turn. The walk follows
 * `properties`, `additionalProperties`, `items`, `allOf` and local `$ref`s; defaults under
 * `anyOf`, `oneOf`, `not` and `if` are not applied, as ajv does not apply them (which branch
 * holds is not known before the check). A `null` is data here, kept as written: unlike a
 * structural schema's, a JSON Schema says with its `type` whether `null` is allowed.
 */

import type { JsonSchema } from '../engine/resource/definition.js';
import { defineOwn } from '../engine/resource/plain-data.js';
import { jsonPointer } from './json-pointer.js';
import { isPlainObject } from './manifest-document.js';
import { resolveLocalRef } from './schema-checks.js';

/** Keywords whose subschemas apply to the same value, and whose defaults are filled in. */
const SAME_VALUE = ['allOf'] as const;

const withDefaults = new WeakMap<object, boolean>();

/**
 * Whether a schema gives a `default` anywhere, so that a spec need not be copied when it does
 * not; remembered per schema object.
 */
export function schemaHasDefaults(schema: JsonSchema): boolean {
  let known = withDefaults.get(schema);
  if (known === undefined) {
    known = containsDefault(schema);
    withDefaults.set(schema, known);
  }
  return known;
}

/**
 * Fills the schema's defaults into `value`, in place (callers pass a copy), and returns the
 * JSON pointers (into `value`) of what it filled in, outermost first.
 *
 * @example
 * const spec = { image: 'nginx' };
 * fillSchemaDefaults(spec, {
 *   type: 'object', properties: { replicas: { type: 'integer', default: 1 } },
 * }); // ['/replicas']; spec is { image: 'nginx', replicas: 1 }
 */
export function fillSchemaDefaults(value: unknown, schema: JsonSchema): string[] {
  const filled: string[] = [];
  fill({ value, path: [], root: schema, filled }, schema, new Set());
  return filled;
}

/** The value being filled, where it is, and what has been filled in so far. */
interface Walk {
  readonly value: unknown;
  readonly path: readonly string[];
  readonly root: JsonSchema;
  readonly filled: string[];
  /** Set when this value was itself filled in: what is inside it is not listed again. */
  readonly inFilled?: true;
}

/**
 * `seen` holds the schemas met on the way to the value without descending into it: a `$ref`
 * cycle that never descends is refused when the schema is compiled, and is cut here too.
 */
function fill(walk: Walk, schema: unknown, seen: Set<object>): void {
  if (!isPlainObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  if (typeof schema.$ref === 'string') fill(walk, localTarget(schema.$ref, walk.root), seen);
  for (const keyword of SAME_VALUE) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) for (const branch of branches) fill(walk, branch, seen);
  }
  const { value } = walk;
  if (isPlainObject(value)) fillObject(walk, value, schema);
  else if (Array.isArray(value) && isPlainObject(schema.items)) {
    for (let i = 0; i < value.length; i++) {
      fill(inside(walk, value[i], String(i)), schema.items, new Set());
    }
  }
}

function fillObject(walk: Walk, value: Record<string, unknown>, schema: JsonSchema): void {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    if (!isPlainObject(property)) continue;
    let filledHere = false;
    if (!Object.prototype.hasOwnProperty.call(value, key)) {
      const given = defaultOf(property, walk.root);
      if (given === undefined) continue;
      defineOwn(value, key, structuredClone(given.value));
      filledHere = true;
      if (walk.inFilled !== true) walk.filled.push(jsonPointer([...walk.path, key]));
    }
    const next = inside(walk, value[key], key);
    fill(filledHere ? { ...next, inFilled: true } : next, property, new Set());
  }
  const additional = schema.additionalProperties;
  if (!isPlainObject(additional)) return;
  for (const key of Object.keys(value)) {
    if (!Object.prototype.hasOwnProperty.call(properties, key)) {
      fill(inside(walk, value[key], key), additional, new Set());
    }
  }
}

/** The walk of a value inside the walked one. */
function inside(walk: Walk, value: unknown, key: string): Walk {
  return { ...walk, value, path: [...walk.path, key] };
}

/** A property's own `default`, or the one of the local schema its `$ref` names. */
function defaultOf(schema: JsonSchema, root: JsonSchema): { value: unknown } | undefined {
  const seen = new Set<object>();
  for (let at: unknown = schema; isPlainObject(at) && !seen.has(at);) {
    seen.add(at);
    if (Object.prototype.hasOwnProperty.call(at, 'default')) return { value: at.default };
    at = typeof at.$ref === 'string' ? localTarget(at.$ref, root) : undefined;
  }
  return undefined;
}

/** The subschema a local `$ref` (`#/$defs/port`) names, if there is one. */
function localTarget(ref: string, root: JsonSchema): unknown {
  return resolveLocalRef(ref, root)?.node;
}

/** Whether `default` is a keyword somewhere in the schema (not a property named so). */
function containsDefault(schema: unknown): boolean {
  const pending: unknown[] = [schema];
  for (let node = pending.pop(); node !== undefined || pending.length > 0; node = pending.pop()) {
    if (!isPlainObject(node)) continue;
    if (Object.prototype.hasOwnProperty.call(node, 'default')) return true;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'enum' || key === 'const' || key === 'examples') continue;
      if (key === 'properties' || key === '$defs' || key === 'definitions') {
        if (isPlainObject(child)) pending.push(...Object.values(child));
      } else if (Array.isArray(child)) pending.push(...(child as unknown[]));
      else pending.push(child);
    }
  }
  return false;
}
