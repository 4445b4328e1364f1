/**
 * kro's SimpleSchema as a structural (OpenAPI v3) schema, the way kro's `simpleschema` package
 * turns an RGD's `spec.schema.spec` into the generated CRD's schema:
 *
 * - a string field is `TYPE | marker=value ...`: `string`, `integer`, `boolean`, `float` (an
 *   OpenAPI `number`; kro has no `number`), `object` (any fields kept), `[]TYPE`,
 *   `map[string]TYPE`, or the name of a custom type from `spec.schema.types`;
 * - a mapping is a nested object; an object none of whose fields is required and one of whose
 *   fields has a default gets `default: {}`, so its fields' defaults apply when it is omitted;
 * - markers: `required`, `default`, `description`, `minimum`, `maximum`, `enum` (comma
 *   separated, typed as the field), `pattern`, `minLength`, `maxLength`, `minItems`, `maxItems`,
 *   `uniqueItems`, `listType`, `listMapKey`, `validation` (a CEL rule), `immutable`. Values may
 *   be quoted (`"a b"`). As kro's markers.go, a marker must fit the field's type: `enum` on
 *   strings and integers (no empty value), `pattern`/`minLength`/`maxLength` on strings,
 *   `minItems`/`maxItems`/`uniqueItems`/`listType`/`listMapKey` on arrays, and `listMapKey`
 *   needs `listType=map`.
 *
 * Every problem is reported where it is, as `rgd-bad-schema`.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import type { DocumentReport } from '../document-report.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';

type MutableSchema = Record<string, unknown>;

/** kro's atomic types (pkg/simpleschema/types/atomic.go): `float` is OpenAPI's `number`. */
const ATOMIC: Readonly<Record<string, string>> = {
  string: 'string',
  integer: 'integer',
  boolean: 'boolean',
  float: 'number',
};

const MAX_NESTING = 16;

/** The error of a use of a custom type refused where it is declared (reported there). */
const REFUSED_TYPE = '';

/** The name a SimpleSchema type string ends at (`[]map[string]Server | ...` is `Server`). */
function baseTypeName(text: string): string {
  let type = (text.split('|')[0] ?? '').trim();
  for (;;) {
    if (type.startsWith('[]')) type = type.slice(2).trim();
    else {
      const map = /^map\[[^\]]*\](.*)$/.exec(type);
      if (map === null) return type;
      type = (map[1] ?? '').trim();
    }
  }
}

/** The custom types a type's definition (a type string or a mapping of fields) names. */
function typeDependencies(value: unknown, declared: Readonly<Record<string, unknown>>): string[] {
  if (typeof value === 'string') {
    const name = baseTypeName(value);
    return Object.hasOwn(declared, name) ? [name] : [];
  }
  if (!isPlainObject(value)) return [];
  return Object.values(value).flatMap((field) => typeDependencies(field, declared));
}

/**
 * The custom types in dependency order (depth first, ties by declaration), and the cycles found:
 * each as the types on it, from the first one declared; the types of a cycle are not ordered.
 */
export function typeOrder(types: Readonly<Record<string, unknown>>): {
  order: string[];
  cycles: string[][];
} {
  const order: string[] = [];
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done' | 'cycle'>();
  const stack: string[] = [];
  const visit = (name: string): boolean => {
    const seen = state.get(name);
    if (seen === 'done') return true;
    if (seen === 'cycle') return false;
    if (seen === 'visiting') {
      const cycle = stack.slice(stack.indexOf(name));
      cycles.push(cycle);
      for (const member of cycle) state.set(member, 'cycle');
      return false;
    }
    state.set(name, 'visiting');
    stack.push(name);
    let ok = true;
    for (const dep of new Set(typeDependencies(types[name], types))) ok = visit(dep) && ok;
    stack.pop();
    if (state.get(name) === 'visiting') state.set(name, 'done');
    // A type that uses a type of a cycle is built after it; its use is refused quietly.
    if (state.get(name) === 'done') order.push(name);
    return ok && state.get(name) === 'done';
  };
  for (const name of Object.keys(types)) visit(name);
  return { order, cycles };
}

/** Reads SimpleSchema fields into structural schemas, reporting problems at their nodes. */
export class SimpleSchemaReader {
  readonly #custom = new Map<string, { schema: MutableSchema; required: boolean }>();
  /** The names of `spec.schema.types`: one not in `#custom` was refused where it is declared. */
  readonly #declared = new Set<string>();
  #failed = false;

  constructor(
    private readonly report: DocumentReport,
    private readonly code: 'rgd-bad-schema' = 'rgd-bad-schema',
  ) {}

  /** Whether any problem was reported. */
  get failed(): boolean {
    return this.#failed;
  }

  /**
   * Reads `spec.schema.types` (custom types, usable by name in fields and in other types), each
   * after the types it uses, as kro orders them (pkg/simpleschema/transform.go): a type may use
   * one declared below it; types that use each other are a cycle, refused at the first one.
   */
  readTypes(types: unknown, at: readonly (string | number)[]): void {
    if (types === undefined) return;
    if (!isPlainObject(types)) {
      this.#fail(at, 'types must be a mapping of type names to SimpleSchema fields');
      return;
    }
    for (const name of Object.keys(types)) this.#declared.add(name);
    const ordered = typeOrder(types);
    for (const cycle of ordered.cycles) {
      const [first = ''] = cycle;
      this.#fail(
        [...at, first],
        `cyclic dependency in type ${first}: ${[...cycle, first].join(' -> ')}`,
      );
    }
    for (const name of ordered.order) {
      const value = types[name];
      const where = [...at, name];
      if (ATOMIC[name] !== undefined || name === 'object') {
        this.#fail(where, `the custom type ${JSON.stringify(name)} shadows a built-in type`);
        continue;
      }
      if (typeof value === 'string') {
        const holder: MutableSchema = { type: 'object', properties: {} };
        const schema = this.#field(name, value, where, holder);
        if (schema !== undefined) {
          const required = Array.isArray(holder.required) && holder.required.length > 0;
          this.#custom.set(name, { schema, required });
        }
      } else {
        const schema = this.readObject(value, where);
        if (schema !== undefined) this.#custom.set(name, { schema, required: false });
      }
    }
  }

  /** A mapping of SimpleSchema fields as an object schema (undefined after a problem). */
  readObject(value: unknown, at: readonly (string | number)[]): MutableSchema | undefined {
    if (!isPlainObject(value)) {
      this.#fail(at, 'a SimpleSchema object must be a mapping of field names to types');
      return undefined;
    }
    const schema: MutableSchema = { type: 'object', properties: {} };
    const properties = schema.properties as Record<string, unknown>;
    let childHasDefault = false;
    let ok = true;
    for (const [name, field] of Object.entries(value)) {
      const where = [...at, name];
      let child: MutableSchema | undefined;
      if (typeof field === 'string') child = this.#field(name, field, where, schema);
      else if (isPlainObject(field)) child = this.readObject(field, where);
      else {
        this.#fail(where, `the field ${JSON.stringify(name)} must be a type string or a mapping`);
      }
      if (child === undefined) {
        ok = false;
        continue;
      }
      if (child.default !== undefined) childHasDefault = true;
      properties[name] = child;
    }
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    if (required.length > 0) schema.required = [...new Set(required)].sort();
    else if (childHasDefault) schema.default = {};
    return ok ? schema : undefined;
  }

  #field(
    name: string,
    text: string,
    at: readonly (string | number)[],
    parent: MutableSchema,
  ): MutableSchema | undefined {
    const bar = text.indexOf('|');
    const typeText = (bar === -1 ? text : text.slice(0, bar)).trim();
    const type = this.#type(typeText, 0);
    if ('error' in type) {
      if (type.error === REFUSED_TYPE) this.#failed = true;
      else this.#fail(at, type.error);
      return undefined;
    }
    const schema = type.schema;
    if (type.required) addRequired(parent, name);
    if (bar === -1) return schema;
    const markers = parseMarkers(text.slice(bar + 1));
    if ('error' in markers) {
      this.#fail(at, `${JSON.stringify(text)}: ${markers.error}`);
      return undefined;
    }
    for (const [key, value] of markers.markers) {
      const problem = applyMarker(schema, key, value, name, parent);
      if (problem !== undefined) {
        this.#fail(at, `${JSON.stringify(text)}: ${problem}`);
        return undefined;
      }
    }
    const problem = listMarkersProblem(schema) ?? defaultProblem(schema);
    if (problem !== undefined) {
      this.#fail(at, `${JSON.stringify(text)}: ${problem}`);
      return undefined;
    }
    return schema;
  }

  #type(
    text: string,
    depth: number,
  ): { schema: MutableSchema; required: boolean } | { error: string } {
    if (depth > MAX_NESTING) return { error: `the type ${JSON.stringify(text)} nests too deep` };
    if (text === '') return { error: 'the field has no type (string, integer, []string, ...)' };
    const atomic = ATOMIC[text];
    if (atomic !== undefined) return { schema: { type: atomic }, required: false };
    if (text === 'object') {
      return {
        schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        required: false,
      };
    }
    if (text.startsWith('[]')) {
      const items = this.#type(text.slice(2).trim(), depth + 1);
      if ('error' in items) return items;
      return { schema: { type: 'array', items: items.schema }, required: false };
    }
    const map = /^map\[([^\]]*)\](.*)$/.exec(text);
    if (map !== null) {
      if ((map[1] ?? '').trim() !== 'string') {
        return { error: `the keys of a map must be strings: map[string]T, not ${text}` };
      }
      const values = this.#type((map[2] ?? '').trim(), depth + 1);
      if ('error' in values) return values;
      return { schema: { type: 'object', additionalProperties: values.schema }, required: false };
    }
    const custom = this.#custom.get(text);
    if (custom !== undefined) {
      return { schema: structuredClone(custom.schema), required: custom.required };
    }
    // A type refused where it is declared is not refused again at each use.
    if (this.#declared.has(text)) return { error: REFUSED_TYPE };
    return {
      error: `unknown type ${JSON.stringify(text)}: use string, integer, boolean, float, object, []T, map[string]T or a type of spec.schema.types`,
    };
  }

  #fail(at: readonly (string | number)[], message: string): void {
    this.#failed = true;
    this.report.add(this.code, jsonPointer([...at]), message);
  }
}

/**
 * Why a field's default breaks its own markers (`enum`, `minimum`, `maximum`, `minLength`,
 * `maxLength`, `pattern`), which the API server would only find when an instance omits the field.
 */
function defaultProblem(schema: MutableSchema): string | undefined {
  const value = schema.default;
  if (value === undefined) return undefined;
  const shown = JSON.stringify(value);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value)) {
    return `the default ${shown} is not one of the enum values (${schema.enum.map((e) => JSON.stringify(e)).join(', ')})`;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) {
      return `the default ${shown} is below the minimum ${schema.minimum}`;
    }
    if (typeof schema.maximum === 'number' && value > schema.maximum) {
      return `the default ${shown} is above the maximum ${schema.maximum}`;
    }
  }
  if (typeof value === 'string') {
    // JSON Schema counts code points: a surrogate pair is one.
    const length = value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) {
      return `the default ${shown} is shorter than minLength ${schema.minLength}`;
    }
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
      return `the default ${shown} is longer than maxLength ${schema.maxLength}`;
    }
  }
  return undefined;
}

function addRequired(parent: MutableSchema, name: string): void {
  const required = Array.isArray(parent.required) ? (parent.required as string[]) : [];
  parent.required = [...required, name];
}

/** `required=true default="a b" enum=x,y` as key/value pairs, or why it does not parse. */
export function parseMarkers(text: string): { markers: [string, string][] } | { error: string } {
  const markers: [string, string][] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i] ?? '')) i++;
    if (i >= n) break;
    const eq = text.indexOf('=', i);
    const key = (eq === -1 ? text.slice(i) : text.slice(i, eq)).trim();
    if (eq === -1 || /\s/.test(key) || key === '') {
      return { error: `the marker ${JSON.stringify(key)} has no value (marker=value)` };
    }
    i = eq + 1;
    let value = '';
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < n) {
        const c = text[i] ?? '';
        if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
          value += text[i + 1] ?? '';
          i += 2;
          continue;
        }
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        value += c;
        i++;
      }
      if (!closed) return { error: `the value of ${key} has an unclosed quote` };
    } else {
      let depth = 0;
      while (i < n) {
        const c = text[i] ?? '';
        if (c === '[' || c === '{') depth++;
        else if (c === ']' || c === '}') depth--;
        else if (/\s/.test(c) && depth === 0) break;
        value += c;
        i++;
      }
      if (depth !== 0) return { error: `the value of ${key} has an unbalanced bracket` };
    }
    markers.push([key, value]);
  }
  return { markers };
}

function applyMarker(
  schema: MutableSchema,
  key: string,
  value: string,
  name: string,
  parent: MutableSchema,
): string | undefined {
  switch (key) {
    case 'required': {
      const flag = parseBoolean(value);
      if (flag === undefined) return `required must be true or false, not ${value}`;
      if (flag) addRequired(parent, name);
      return undefined;
    }
    case 'default': {
      const typed = typedValue(schema, value);
      if ('error' in typed) return `default: ${typed.error}`;
      schema.default = typed.value;
      return undefined;
    }
    case 'description':
      schema.description = value;
      return undefined;
    case 'minimum':
    case 'maximum': {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number)) return `${key} must be a number`;
      schema[key] = number;
      return undefined;
    }
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems': {
      const wanted = key.endsWith('Length') ? 'string' : 'array';
      if (schema.type !== wanted) return onlyFor(key, wanted, schema);
      if (!/^\d+$/.test(value)) return `${key} must be a non-negative integer`;
      schema[key] = Number(value);
      return undefined;
    }
    case 'pattern':
      if (value === '') return 'pattern marker value cannot be empty';
      if (schema.type !== 'string') return onlyFor(key, 'string', schema);
      try {
        new RegExp(value, 'u');
      } catch {
        return `pattern ${JSON.stringify(value)} is not a regular expression`;
      }
      schema.pattern = value;
      return undefined;
    case 'uniqueItems': {
      const flag = parseBoolean(value);
      if (flag === undefined) return `uniqueItems must be true or false`;
      if (schema.type !== 'array') return onlyFor(key, 'array', schema);
      const listType = schema['x-kubernetes-list-type'] as string | undefined;
      if (flag && listType !== undefined && listType !== 'set') {
        return `cannot set unique when listType is set to ${listType}`;
      }
      if (flag) schema['x-kubernetes-list-type'] = 'set';
      return undefined;
    }
    case 'listType': {
      if (schema.type !== 'array') return 'listType marker only applies to array types';
      if (!['atomic', 'set', 'map'].includes(value)) {
        return `unsupported value for listType ${value}, needs to be one of atomic, set, or map`;
      }
      const listType = schema['x-kubernetes-list-type'] as string | undefined;
      if (listType !== undefined && listType !== value) {
        return `listType attempting to overwrite set type of ${listType}, this can happen if you set contradictory markers like uniqueItems=true | listType=map`;
      }
      schema['x-kubernetes-list-type'] = value;
      return undefined;
    }
    case 'listMapKey': {
      if (schema.type !== 'array') return 'listMapKey marker only applies to array types';
      const keys = (schema['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [];
      if (keys.includes(value)) return `duplicate listMapKey marker, value ${value}`;
      schema['x-kubernetes-list-map-keys'] = [...keys, value];
      return undefined;
    }
    case 'enum': {
      if (schema.type !== 'string' && schema.type !== 'integer') {
        return `enum values only supported for string and integer types, got type: ${String(schema.type)}`;
      }
      const values: unknown[] = [];
      for (const item of value.split(',')) {
        if (item.trim() === '') return 'empty enum values are not allowed';
        const typed = typedValue(schema, item.trim());
        if ('error' in typed) return `enum: ${typed.error}`;
        values.push(typed.value);
      }
      schema.enum = values;
      return undefined;
    }
    case 'validation':
      if (value.trim() === '') return 'validation needs a CEL rule';
      schema['x-kubernetes-validations'] = [
        ...((schema['x-kubernetes-validations'] as unknown[] | undefined) ?? []),
        { rule: value, message: 'validation failed' },
      ];
      return undefined;
    case 'immutable': {
      const flag = parseBoolean(value);
      if (flag === undefined) return 'immutable must be true or false';
      if (flag) {
        schema['x-kubernetes-validations'] = [
          ...((schema['x-kubernetes-validations'] as unknown[] | undefined) ?? []),
          { rule: 'self == oldSelf', message: 'field is immutable' },
        ];
      }
      return undefined;
    }
    default:
      return `unknown marker ${JSON.stringify(key)}`;
  }
}

/** kro's refusal of a marker on a field of another type. */
function onlyFor(key: string, type: string, schema: MutableSchema): string {
  return `${key} marker is only valid for ${type} types, got type: ${String(schema.type)}`;
}

/** kro's check of markers together (fieldLevelValidation): `listMapKey` needs `listType=map`. */
function listMarkersProblem(schema: MutableSchema): string | undefined {
  if (schema['x-kubernetes-list-map-keys'] === undefined) return undefined;
  const listType = schema['x-kubernetes-list-type'] as string | undefined;
  if (listType === undefined) {
    return 'listMapKey set while listType is unset, listType must be set to map';
  }
  return listType === 'map'
    ? undefined
    : `listMapKey set while listType is set to ${listType}, listType must be set to map`;
}

function parseBoolean(value: string): boolean | undefined {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/** A marker's value typed as the field's type (a string field takes it as it is). */
function typedValue(schema: JsonSchema, text: string): { value: unknown } | { error: string } {
  switch (schema.type) {
    case 'string':
      return { value: text };
    case 'integer':
      return /^[-+]?\d+$/.test(text)
        ? { value: Number(text) }
        : { error: `${JSON.stringify(text)} is not an integer` };
    case 'number': {
      const number = Number(text);
      return text.trim() !== '' && Number.isFinite(number)
        ? { value: number }
        : { error: `${JSON.stringify(text)} is not a number` };
    }
    case 'boolean': {
      const flag = parseBoolean(text);
      return flag === undefined
        ? { error: `${JSON.stringify(text)} is not true or false` }
        : { value: flag };
    }
    default:
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: `${JSON.stringify(text)} is not JSON` };
      }
  }
}
