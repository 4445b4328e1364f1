/**
 * Manifest values as CEL sees them. A value is converted lazily, node by node, guided by its
 * schema as the API server does: `type: integer` (and `x-kubernetes-int-or-string` numbers) are
 * CEL `int`, `type: number` is `double`, a string of `format: duration`, `date`, `date-time` or
 * `byte` is a duration, timestamp or bytes (`formatted-string.ts`), objects are maps whose fields
 * `self.name` selects, arrays are lists (a `set` or `map` list compares unordered, see
 * `list-equality.ts`). Where the schema says nothing (`x-kubernetes-preserve-unknown-fields`),
 * whole numbers are `int` and others `double`. A field whose name CEL cannot write is read by its
 * escaped name (`property-escaping.ts`).
 */

import type { CelInput, CelList, CelValue } from '@bufbuild/cel';
import { isTypedFormat, toFormattedValue } from './formatted-string.js';
import { unescapeFieldName } from './property-escaping.js';
import { childSchema, type SchemaNode } from '../schema-node.js';

const LIST = Symbol.for('@bufbuild/cel/list');
const MAP = Symbol.for('@bufbuild/cel/map');

/** The CEL value of a JSON value under `schema` (`undefined`: no schema). */
export function toCelValue(value: unknown, schema: SchemaNode | undefined): CelInput {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const format = schema?.format;
    return format !== undefined && isTypedFormat(format)
      ? (toFormattedValue(value, format) as CelInput)
      : value;
  }
  if (typeof value === 'number') return toCelNumber(value, schema);
  // The wrappers carry `@bufbuild/cel`'s brand symbols, which its types cannot name.
  if (Array.isArray(value)) return new JsonList(value, schema) as unknown as CelList;
  if (typeof value === 'object') {
    return new JsonMap(value as Record<string, unknown>, schema);
  }
  return null;
}

function toCelNumber(value: number, schema: SchemaNode | undefined): number | bigint {
  const type = schema?.type;
  if (type === 'number') return value;
  if (!Number.isInteger(value)) return value;
  return BigInt(value);
}

/**
 * A JSON array as a CEL list; elements convert on access. Its schema's `x-kubernetes-list-type`
 * decides how it compares (`list-equality.ts`).
 */
export class JsonList implements Iterable<CelValue> {
  readonly [LIST] = {};

  constructor(
    readonly array: readonly unknown[],
    readonly schema: SchemaNode | undefined,
  ) {}

  get size(): number {
    return this.array.length;
  }

  get(index: number): CelValue | undefined {
    if (index < 0 || index >= this.array.length) return undefined;
    return this.#convert(this.array[index]);
  }

  *values(): IterableIterator<CelValue> {
    for (const item of this.array) yield this.#convert(item);
  }

  [Symbol.iterator](): IterableIterator<CelValue> {
    return this.values();
  }

  #convert(item: unknown): CelValue {
    return toCelValue(item, childSchema(this.schema, 'items')) as CelValue;
  }
}

type MapKey = bigint | string | boolean | { readonly value: bigint };

/** A JSON object as a CEL map (string keys); values convert on access. */
class JsonMap {
  readonly [MAP] = {};

  constructor(
    readonly object: Readonly<Record<string, unknown>>,
    readonly schema: SchemaNode | undefined,
  ) {}

  get size(): number {
    return Object.keys(this.object).length;
  }

  get(key: MapKey | number): CelValue | undefined {
    if (typeof key !== 'string') return undefined;
    if (Object.prototype.hasOwnProperty.call(this.object, key)) return this.#convert(key);
    // `self.x__dash__prop` names the field `x-prop`, as the API server escapes names.
    const field = key.includes('__') ? unescapeFieldName(key) : key;
    if (field === key || !Object.prototype.hasOwnProperty.call(this.object, field))
      return undefined;
    return this.#convert(field);
  }

  has(key: MapKey | number): boolean {
    return this.get(key) !== undefined;
  }

  forEach(callback: (value: CelValue, key: string, map: this) => void, thisArg?: unknown): void {
    for (const key of Object.keys(this.object)) {
      callback.call(thisArg, this.#convert(key), key, this);
    }
  }

  *entries(): IterableIterator<[string, CelValue]> {
    for (const key of Object.keys(this.object)) yield [key, this.#convert(key)];
  }

  keys(): IterableIterator<string> {
    return Object.keys(this.object)[Symbol.iterator]();
  }

  *values(): IterableIterator<CelValue> {
    for (const key of Object.keys(this.object)) yield this.#convert(key);
  }

  [Symbol.iterator](): IterableIterator<[string, CelValue]> {
    return this.entries();
  }

  #convert(key: string): CelValue {
    return toCelValue(this.object[key], childSchema(this.schema, 'property', key)) as CelValue;
  }
}
