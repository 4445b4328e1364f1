/**
 * cel-go's `sets` extension (Kubernetes 1.29): `sets.contains(list, sublist)` (every element of
 * `sublist` is in `list`), `sets.equivalent(a, b)` (each contains the other) and
 * `sets.intersects(a, b)` (an element in common), by CEL equality (`1 == 1.0`). Charged as
 * cel-go charges them, the product of the two sizes, though membership is hashed here.
 */

import { celFunc, CelScalar, listType, type CelFunc, type CelList } from '@bufbuild/cel';
import { charge, sizeCost } from '../cost-budget.js';
import { CelValueSet } from './lists-extension.js';

const LIST = listType(CelScalar.DYN);

function contains(list: CelList, sublist: CelList): boolean {
  charge(sizeCost(list.size * sublist.size));
  const members = new CelValueSet(list);
  for (const item of sublist) if (!members.has(item)) return false;
  return true;
}

export const setsLibrary: readonly CelFunc[] = [
  celFunc('sets.contains', [LIST, LIST], CelScalar.BOOL, contains),
  celFunc(
    'sets.equivalent',
    [LIST, LIST],
    CelScalar.BOOL,
    (a, b) => contains(a, b) && contains(b, a),
  ),
  celFunc('sets.intersects', [LIST, LIST], CelScalar.BOOL, (a, b) => {
    charge(sizeCost(a.size * b.size));
    const members = new CelValueSet(a);
    for (const item of b) if (members.has(item)) return true;
    return false;
  }),
];
