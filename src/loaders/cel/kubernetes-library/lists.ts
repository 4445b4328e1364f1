/**
 * The Kubernetes `lists` library: `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(x)` and
 * `lastIndexOf(x)` on lists of comparable values (numbers, strings, booleans, bytes, durations,
 * timestamps), as
 * k8s.io/apiserver's `pkg/cel/library/lists.go` defines them.
 */

import {
  celMethod,
  CelScalar,
  isCelUint,
  listType,
  type CelFunc,
  type CelList,
  type CelValue,
} from '@bufbuild/cel';
import { JsonList } from '../cel-value.js';
import { charge, sizeCost } from '../cost-budget.js';
import { durationValue, timeOf } from '../formatted-string.js';
import { celEquals } from '../list-equality.js';
import { isSchemaNode } from '../../schema-node.js';

const LIST = listType(CelScalar.DYN);

/** Numbers of any CEL numeric type as one comparable kind. */
function numeric(value: CelValue): bigint | number | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  if (isCelUint(value)) return value.value;
  return undefined;
}

/** Orders two comparable CEL values; throws for values CEL cannot order. */
export function compareCel(a: CelValue, b: CelValue): number {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  const s = timeOf(a);
  const t = timeOf(b);
  if (s !== undefined && t !== undefined && s.type === t.type) {
    return s.nanos < t.nanos ? -1 : s.nanos > t.nanos ? 1 : 0;
  }
  throw new Error('no such overload: the list elements are not comparable');
}

/** CEL equality, as `==` (sets and map lists unordered). */
export const equalsCel = celEquals;

function elements(list: CelList): CelValue[] {
  charge(sizeCost(list.size));
  return [...list];
}

function extreme(list: CelList, sign: 1 | -1, name: string): CelValue {
  const items = elements(list);
  let best = items[0];
  if (best === undefined) throw new Error(`${name} called on an empty list`);
  for (const item of items) if (compareCel(item, best) * sign > 0) best = item;
  return best;
}

function sum(list: CelList): CelValue {
  const items = elements(list);
  if (items.length === 0) return zeroOf(list);
  if (items.every((item) => typeof item === 'bigint')) {
    const total = items.reduce((a, b) => a + b, 0n);
    if (total > 0x7fffffffffffffffn || total < -0x8000000000000000n) {
      throw new Error('int overflow in sum()');
    }
    return total;
  }
  if (items.every((item) => typeof item === 'number')) {
    return items.reduce((a, b) => a + b, 0);
  }
  const times = items.map(timeOf);
  if (times.every((time) => time?.type === 'duration')) {
    const total = times.reduce((a, b) => a + (b?.nanos ?? 0n), 0n);
    if (total > 0x7fffffffffffffffn || total < -0x8000000000000000n) {
      throw new Error('duration overflow in sum()');
    }
    return durationValue(total);
  }
  throw new Error('no such overload: sum() needs a list of ints, doubles or durations');
}

/**
 * `sum()` of an empty list: its element type's zero, which cel-go knows from the declared type;
 * here from the schema of a document's list (a list literal's is `0`).
 */
function zeroOf(list: CelList): CelValue {
  const items = list instanceof JsonList ? list.schema?.items : undefined;
  const schema = isSchemaNode(items) ? items : undefined;
  if (schema?.type === 'number') return 0;
  if (schema?.type === 'string' && schema.format === 'duration') return durationValue(0n);
  return 0n;
}

export const listsLibrary: readonly CelFunc[] = [
  celMethod('isSorted', LIST, [], CelScalar.BOOL, function () {
    const items = elements(this);
    for (let i = 1; i < items.length; i++) {
      if (compareCel(items[i - 1] as CelValue, items[i] as CelValue) > 0) return false;
    }
    return true;
  }),
  celMethod('sum', LIST, [], CelScalar.DYN, function () {
    return sum(this);
  }),
  celMethod('min', LIST, [], CelScalar.DYN, function () {
    return extreme(this, -1, 'min');
  }),
  celMethod('max', LIST, [], CelScalar.DYN, function () {
    return extreme(this, 1, 'max');
  }),
  celMethod('indexOf', LIST, [CelScalar.DYN], CelScalar.INT, function (value) {
    const items = elements(this);
    return BigInt(items.findIndex((item) => equalsCel(item, value)));
  }),
  celMethod('lastIndexOf', LIST, [CelScalar.DYN], CelScalar.INT, function (value) {
    const items = elements(this);
    for (let i = items.length - 1; i >= 0; i--) {
      if (equalsCel(items[i] as CelValue, value)) return BigInt(i);
    }
    return -1n;
  }),
];
