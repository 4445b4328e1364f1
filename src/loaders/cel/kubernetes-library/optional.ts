/**
 * Optional values, as far as the format library needs them (`format.named(n)` and
 * `<Format>.validate(s)` return one): `optional.of`, `optional.none`, `hasValue()`, `value()`,
 * `orValue(default)`.
 */

import { celFunc, celList, celMethod, CelScalar, type CelFunc, type CelValue } from '@bufbuild/cel';
import { expectTarget, OPAQUE_TYPE, OpaqueValue } from '../opaque-value.js';

/** `optional.of(value)` or `optional.none()`. */
export class Optional extends OpaqueValue {
  readonly value: CelValue | undefined;

  constructor(value: CelValue | OpaqueValue | undefined) {
    const cel = value as CelValue | undefined;
    super('optional', celList(cel === undefined ? [] : [cel]));
    this.value = cel;
  }
}

export const NONE = new Optional(undefined);

export const optionalLibrary: readonly CelFunc[] = [
  celFunc('optional.of', [CelScalar.DYN], OPAQUE_TYPE, (value) => new Optional(value)),
  celFunc('optional.none', [], OPAQUE_TYPE, () => NONE),
  celMethod('hasValue', OPAQUE_TYPE, [], CelScalar.BOOL, function () {
    return expectTarget(this, Optional, 'hasValue').value !== undefined;
  }),
  celMethod('value', OPAQUE_TYPE, [], CelScalar.DYN, function () {
    const value = expectTarget(this, Optional, 'value').value;
    if (value === undefined) throw new Error('optional.none() dereference');
    return value;
  }),
  celMethod('orValue', OPAQUE_TYPE, [CelScalar.DYN], CelScalar.DYN, function (fallback) {
    return expectTarget(this, Optional, 'orValue').value ?? fallback;
  }),
];
