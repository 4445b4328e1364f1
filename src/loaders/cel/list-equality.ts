/**
 * `==` and `!=` as the API server's values compare: a list whose schema says
 * `x-kubernetes-list-type: set` equals a list of the same elements in any order, and one that
 * says `map` equals a list whose items, found by their `x-kubernetes-list-map-keys`, are equal,
 * in any order. As in cel-go, the left operand decides (`self == oldSelf`). Lists and maps are
 * compared element by element with the same rules, so a set inside an object compares as a set;
 * every other value compares as CEL's standard `==` does.
 */

import {
  celEnv,
  celFunc,
  CelScalar,
  isCelError,
  isCelList,
  isCelMap,
  type CelFunc,
  type CelList,
  type CelValue,
} from '@bufbuild/cel';
import { JsonList } from './cel-value.js';
import { OpaqueValue } from './opaque-value.js';

const { BOOL, DYN } = CelScalar;

const standardEquals = [...celEnv().funcs].find((func) => func.id === '_==_(dyn,dyn)');

/** CEL equality of `left` and `right`, with sets and map lists unordered. */
export function celEquals(left: CelValue, right: CelValue): boolean {
  if (left === right) return true;
  if (isCelList(left)) {
    if (!isCelList(right) || left.size !== right.size) return false;
    if (left instanceof JsonList) {
      const listType = left.schema?.['x-kubernetes-list-type'];
      if (listType === 'set') return equalsSet(left, right);
      const keys = left.schema?.['x-kubernetes-list-map-keys'];
      if (listType === 'map' && Array.isArray(keys)) return equalsMapList(left, right, keys);
    }
    for (let i = 0; i < left.size; i++) {
      if (!celEquals(left.get(i) as CelValue, right.get(i) as CelValue)) return false;
    }
    return true;
  }
  if (isCelMap(left)) {
    if (!isCelMap(right) || left.size !== right.size) return false;
    for (const [key, value] of left) {
      const other = right.get(key);
      if (other === undefined || !celEquals(value, other)) return false;
    }
    return true;
  }
  if (standardEquals === undefined) throw new Error('@bufbuild/cel has no _==_(dyn,dyn)');
  const result = standardEquals.call(0, undefined, [left, right]);
  if (isCelError(result)) throw result;
  return result === true;
}

/** Every element of `right` is in `left` (sizes are equal; a set has no duplicates). */
function equalsSet(left: CelList, right: CelList): boolean {
  const elements = [...left];
  for (const item of right) {
    if (!elements.some((element) => celEquals(element, item))) return false;
  }
  return true;
}

/** Each item of `right` has an equal item of the same keys in `left`, and no key twice. */
function equalsMapList(left: CelList, right: CelList, keys: readonly unknown[]): boolean {
  const keyOf = (item: CelValue): CelValue[] | undefined =>
    isCelMap(item) ? keys.map((key) => item.get(String(key)) ?? null) : undefined;
  const items = [...left].map((item) => ({ key: keyOf(item), item }));
  const seen = new Set<number>();
  for (const item of right) {
    const key = keyOf(item);
    if (key === undefined) return false;
    const index = items.findIndex(
      (entry) =>
        entry.key !== undefined && entry.key.every((part, i) => celEquals(part, key[i] ?? null)),
    );
    const match = items[index];
    if (match === undefined || !celEquals(match.item, item)) return false;
    seen.add(index);
  }
  return seen.size === items.length;
}

/**
 * `left == right` as the operator: a library value that may not be compared (kro's `omit()`)
 * is an error on the left, as cel-go's `Equal` of that value is.
 */
function operatorEquals(left: CelValue, right: CelValue): boolean {
  const refused = left instanceof OpaqueValue ? left.comparisonError() : undefined;
  if (refused !== undefined) throw new Error(refused);
  return celEquals(left, right);
}

/** The `==` and `!=` of the environment, in place of the standard ones. */
export const listEqualityFunctions: readonly CelFunc[] = [
  celFunc('_==_', [DYN, DYN], BOOL, operatorEquals),
  celFunc('_!=_', [DYN, DYN], BOOL, (left, right) => !operatorEquals(left, right)),
];
