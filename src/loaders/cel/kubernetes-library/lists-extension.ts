/**
 * cel-go's `lists` extension at the version Kubernetes 1.34 enables (3): `slice(start, end)`,
 * `flatten()` and `flatten(depth)`, `sort()`, `sortBy(x, key)`, `lists.range(n)`, `reverse()`
 * and `distinct()`. `sortBy` is a macro in cel-go; here the rule compiler rewrites
 * `list.sortBy(x, key)` into `list.@sortByAssociatedKeys(list.map(x, key))`
 * (`compile-expression.ts`). Each call is charged for the size of the lists it reads.
 */

import {
  celFunc,
  celList,
  celMethod,
  CelScalar,
  isCelList,
  isCelUint,
  listType,
  type CelFunc,
  type CelList,
  type CelValue,
} from '@bufbuild/cel';
import { charge, sizeCost } from '../cost-budget.js';
import { compareCel, equalsCel } from './lists.js';

const LIST = listType(CelScalar.DYN);
const { INT } = CelScalar;

/** The name `sortBy` is rewritten to: its key list is computed by a `map`. */
export const SORT_BY_KEYS_FUNCTION = '@sortByAssociatedKeys';

function items(list: CelList): CelValue[] {
  charge(sizeCost(list.size));
  return [...list];
}

function slice(list: CelList, start: bigint, end: bigint): CelList {
  const fail = (why: string): never => {
    throw new Error(`cannot slice(${start}, ${end}), ${why}`);
  };
  if (start < 0n || end < 0n) fail('negative indexes not supported');
  if (start > end) fail('start index must be less than or equal to end index');
  if (BigInt(list.size) < end) fail(`list is length ${list.size}`);
  charge(sizeCost(Number(end - start)));
  const result: CelValue[] = [];
  for (let i = Number(start); i < Number(end); i++) result.push(list.get(i) as CelValue);
  return celList(result);
}

function flatten(list: CelList, depth: bigint): CelValue[] {
  if (depth < 0n) throw new Error('level must be non-negative');
  const result: CelValue[] = [];
  for (const item of items(list)) {
    if (isCelList(item) && depth > 0n) result.push(...flatten(item, depth - 1n));
    else result.push(item);
  }
  return result;
}

/** The kind of a value for `sort`: elements must all be of one comparable kind. */
function sortKind(value: CelValue): string | undefined {
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (isCelUint(value)) return 'uint';
  return undefined;
}

/** `list` ordered by `keys` (the same size), stably. */
function sortByKeys(list: CelList, keys: CelList): CelList {
  if (list.size !== keys.size) {
    throw new Error(
      `@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${list.size} and ${keys.size} elements respectively`,
    );
  }
  const values = items(list);
  const keyValues = items(keys);
  if (values.length === 0) return list;
  const kind = sortKind(keyValues[0] as CelValue);
  if (kind === undefined) throw new Error('list elements must be comparable');
  if (keyValues.some((key) => sortKind(key) !== kind)) {
    throw new Error('list elements must have the same type');
  }
  // n log n comparisons.
  charge(sizeCost(values.length * Math.ceil(Math.log2(values.length + 1))));
  const order = values.map((_, i) => i);
  order.sort((i, j) => compareCel(keyValues[i] as CelValue, keyValues[j] as CelValue) || i - j);
  return celList(order.map((i) => values[i] as CelValue));
}

/** A key under which equal primitive values meet (CEL equates `1`, `1u` and `1.0`). */
function primitiveKey(value: CelValue): string | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return `n${String(value)}`;
  if (isCelUint(value)) return `n${String(value.value)}`;
  if (typeof value === 'string') return `s${value}`;
  if (typeof value === 'boolean') return `b${String(value)}`;
  if (value === null) return 'null';
  return undefined;
}

/**
 * Membership by CEL equality: primitives through a hash set, other values (lists, maps,
 * library types) by comparison with each.
 */
export class CelValueSet {
  readonly #primitives = new Set<string>();
  readonly #others: CelValue[] = [];

  constructor(values: Iterable<CelValue> = []) {
    for (const value of values) this.add(value);
  }

  has(value: CelValue): boolean {
    const key = primitiveKey(value);
    if (key !== undefined) return this.#primitives.has(key);
    return this.#others.some((other) => equalsCel(other, value));
  }

  add(value: CelValue): void {
    const key = primitiveKey(value);
    if (key !== undefined) this.#primitives.add(key);
    else this.#others.push(value);
  }
}

function distinct(list: CelList): CelList {
  const seen = new CelValueSet();
  const result: CelValue[] = [];
  for (const item of items(list)) {
    if (seen.has(item)) continue;
    seen.add(item);
    result.push(item);
  }
  return celList(result);
}

export const listsExtension: readonly CelFunc[] = [
  celMethod('slice', LIST, [INT, INT], LIST, function (start, end) {
    return slice(this, start, end);
  }),
  celMethod('flatten', LIST, [], LIST, function () {
    return celList(flatten(this, 1n));
  }),
  celMethod('flatten', LIST, [INT], LIST, function (depth) {
    return celList(flatten(this, depth));
  }),
  celMethod('sort', LIST, [], LIST, function () {
    return sortByKeys(this, this);
  }),
  celMethod(SORT_BY_KEYS_FUNCTION, LIST, [LIST], LIST, function (keys) {
    return sortByKeys(this, keys);
  }),
  celFunc('lists.range', [INT], LIST, (n) => {
    charge(sizeCost(Number(n)));
    const result: bigint[] = [];
    for (let i = 0n; i < n; i++) result.push(i);
    return celList(result);
  }),
  celMethod('reverse', LIST, [], LIST, function () {
    return celList(items(this).reverse());
  }),
  celMethod('distinct', LIST, [], LIST, function () {
    return distinct(this);
  }),
];
