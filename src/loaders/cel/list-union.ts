/**
 * `+` of lists as the API server's values add them (k8s.io/apiserver `pkg/cel/common`,
 * `addToSetList` / `addToMapList`): when the left list's schema says `x-kubernetes-list-type:
 * set`, the right's elements not in it are appended (a union, in order); when it says `map`, an
 * item of the right replaces, in place, the item with its `x-kubernetes-list-map-keys`, and the
 * others are appended. Any other list concatenates, as CEL's standard `+` does. Charged by the
 * lists' sizes, as the standard one is (`charged-standard.ts`).
 */

import {
  celFunc,
  celList,
  isCelMap,
  listType,
  CelScalar,
  type CelList,
  type CelValue,
} from '@bufbuild/cel';
import { JsonList } from './cel-value.js';
import { charge, sizeCost } from './cost-budget.js';
import { celEquals } from './list-equality.js';

const LIST = listType(CelScalar.DYN);

/** `left + right`, with a set or map list on the left merging rather than concatenating. */
export function addLists(left: CelList, right: CelList): CelList {
  charge(sizeCost(left.size + right.size));
  const elements = [...left];
  const schema = left instanceof JsonList ? left.schema : undefined;
  const listKind = schema?.['x-kubernetes-list-type'];
  const keys = schema?.['x-kubernetes-list-map-keys'];
  if (listKind === 'set') {
    for (const item of right) {
      if (!elements.some((element) => celEquals(element, item))) elements.push(item);
    }
  } else if (listKind === 'map' && Array.isArray(keys)) {
    for (const item of right) {
      const at = elements.findIndex((element) => sameKeys(element, item, keys));
      if (at === -1) elements.push(item);
      else elements[at] = item;
    }
  } else {
    elements.push(...right);
  }
  return celList(elements);
}

/** Whether two items of a map list have equal values at every key (an absent key is null). */
function sameKeys(a: CelValue, b: CelValue, keys: readonly unknown[]): boolean {
  if (!isCelMap(a) || !isCelMap(b)) return false;
  return keys.every((key) => celEquals(a.get(String(key)) ?? null, b.get(String(key)) ?? null));
}

/** The `+` of two lists in the environment, in place of the standard one. */
export const listUnionFunctions = [celFunc('_+_', [LIST, LIST], LIST, addLists)];
