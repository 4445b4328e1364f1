/**
 * Optional values (the format library returns them; `optionalOldSelf` binds one):
 * `optional.of`, `optional.ofNonZeroValue`, `optional.none`, `hasValue()`, `value()`,
 * `orValue(default)` and `or(optional)`. The optional syntax (`self.?field`, `list[?0]`,
 * `{?key: value}`) and the `optMap` macro are not parsed by `@bufbuild/cel`.
 */

import {
  celFunc,
  celList,
  celMethod,
  CelScalar,
  isCelList,
  isCelMap,
  isCelUint,
  type CelFunc,
  type CelValue,
} from '@bufbuild/cel';
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

/** Seconds of `0001-01-01T00:00:00Z`, the zero timestamp. */
const ZERO_TIMESTAMP_SECONDS = -62135596800n;

/** Whether `value` is its type's zero value (`0`, `''`, `[]`, `null`, `duration('0s')`...). */
function isZeroValue(value: CelValue): boolean {
  if (value === null || value === false || value === '' || value === 0n || value === 0) return true;
  if (isCelUint(value)) return value.value === 0n;
  if (value instanceof Uint8Array || isCelList(value) || isCelMap(value)) {
    return (value instanceof Uint8Array ? value.length : value.size) === 0;
  }
  // A protobuf Timestamp or Duration (their message fields).
  const message = (value as { message?: { seconds?: unknown; nanos?: unknown } }).message;
  const typeName = (value as { desc?: { typeName?: string } }).desc?.typeName;
  if (message === undefined || typeName === undefined) return false;
  const zero = typeName === 'google.protobuf.Timestamp' ? ZERO_TIMESTAMP_SECONDS : 0n;
  return (
    (typeName === 'google.protobuf.Timestamp' || typeName === 'google.protobuf.Duration') &&
    BigInt(message.seconds as bigint | number) === zero &&
    message.nanos === 0
  );
}

export const optionalLibrary: readonly CelFunc[] = [
  celFunc('optional.ofNonZeroValue', [CelScalar.DYN], OPAQUE_TYPE, (value) =>
    isZeroValue(value) ? NONE : new Optional(value),
  ),
  celMethod('or', OPAQUE_TYPE, [OPAQUE_TYPE], OPAQUE_TYPE, function (other) {
    const optional = expectTarget(this, Optional, 'or');
    return optional.value === undefined ? expectTarget(other, Optional, 'or') : optional;
  }),
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
