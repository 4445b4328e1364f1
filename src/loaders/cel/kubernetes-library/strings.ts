/**
 * The `strings` extension as Kubernetes enables it (`charAt`, `indexOf`, `lastIndexOf`,
 * `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim`, `join`, `strings.quote`,
 * `format`): `@bufbuild/cel`'s implementation of cel-go's extension, each call charged for the
 * size of the strings it reads and writes.
 */

import {
  celFunc,
  celMethod,
  isCelError,
  isCelList,
  type CelFunc,
  type CelValue,
} from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { charge, sizeCost } from '../cost-budget.js';

function sizeOf(value: CelValue | undefined): number {
  if (typeof value === 'string') return value.length;
  if (isCelList(value)) return value.size;
  return 0;
}

/** A copy of `func` that charges for its arguments and its result. */
function charged(func: CelFunc): CelFunc {
  const impl = function (this: CelValue | undefined, ...args: CelValue[]): CelValue {
    charge(sizeCost(sizeOf(this) + args.reduce((n: number, arg) => n + sizeOf(arg), 0)));
    const result = func.call(0, this, args);
    if (result === undefined) throw new Error(`found no matching overload for '${func.name}'`);
    if (isCelError(result)) throw result;
    charge(sizeCost(sizeOf(result)));
    return result;
  };
  return func.target === undefined
    ? celFunc(
        func.name,
        func.arguments,
        func.result,
        impl as unknown as Parameters<typeof celFunc>[3],
      )
    : celMethod(
        func.name,
        func.target,
        func.arguments,
        func.result,
        impl as unknown as Parameters<typeof celMethod>[4],
      );
}

export const stringsLibrary: readonly CelFunc[] = strings.map(charged);
