/**
 * cel-go's optional library (`cel.OptionalTypes()`, which the API server enables from
 * Kubernetes 1.28; the format library returns optionals and `optionalOldSelf` binds one):
 * `optional.of`, `optional.ofNonZeroValue`, `optional.none`, `hasValue()`, `value()`,
 * `orValue(default)`, `or(optional)`, `first()`, `last()`, `optional.unwrap(list)` and
 * `unwrapOpt()`, and what the optional syntax evaluates to (`optional-syntax.ts` parses it,
 * `optional-lowering.ts` plans it): `a.?b`, `a[?k]`, optional list elements and map entries.
 */

import {
  celFunc,
  celList,
  celMap,
  celMethod,
  CelScalar,
  isCelList,
  isCelMap,
  isCelUint,
  listType,
  type CelFunc,
  type CelList,
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

/**
 * The functions `a.?b` and `a[?k]` are planned as: `@bufbuild/cel`'s planner takes cel-go's
 * names (`_?._`, `_[?_]`) for an access that may be absent, not for one that makes an optional.
 */
export const OPTIONAL_SELECT_FUNCTION = '@cosi.optionalSelect';
export const OPTIONAL_INDEX_FUNCTION = '@cosi.optionalIndex';
/** The function `has(o.f)` on an optional `o` is planned as. */
export const OPTIONAL_HAS_FUNCTION = '@cosi.optionalHas';
/** The function an optional list literal (`[a, ?b]`) is planned as: `(list, optional indices)`. */
export const OPTIONAL_ELEMENTS_FUNCTION = '@cosi.optionalElements';
/** The function an optional map literal (`{?k: v}`) is planned as: `(map, optional keys)`. */
export const OPTIONAL_ENTRIES_FUNCTION = '@cosi.optionalEntries';

/** The value an optional holds, for the operand of a selection or index on an optional. */
function unwrapOperand(operand: CelValue): CelValue | undefined {
  return operand instanceof Optional ? operand.value : operand;
}

/** `operand.?field`, and `operand.field` on an optional operand. */
function selectOptional(operand: CelValue, field: string): Optional {
  const target = unwrapOperand(operand);
  if (target === undefined) return NONE;
  if (!isCelMap(target) || target instanceof OpaqueValue) {
    throw new Error(`type '${typeName(target)}' does not support field selection`);
  }
  const value = target.get(field);
  return value === undefined ? NONE : new Optional(value);
}

/** `operand[?key]`, and `operand[key]` on an optional operand. */
function indexOptional(operand: CelValue, key: CelValue): Optional {
  const target = unwrapOperand(operand);
  if (target === undefined) return NONE;
  if (isCelList(target)) {
    const index = listIndex(key);
    if (index === undefined) throw new Error('unsupported index type');
    const value = index >= 0 && index < target.size ? target.get(index) : undefined;
    return value === undefined ? NONE : new Optional(value);
  }
  if (isCelMap(target) && !(target instanceof OpaqueValue)) {
    const value = target.get(key as never);
    return value === undefined ? NONE : new Optional(value);
  }
  throw new Error(`found no matching overload for '_[?_]' applied to '${typeName(target)}'`);
}

/** A list index from an int, or a uint or double with an integral value. */
function listIndex(key: CelValue): number | undefined {
  if (typeof key === 'bigint') return Number(key);
  if (isCelUint(key)) return Number(key.value);
  if (typeof key === 'number' && Number.isInteger(key)) return key;
  return undefined;
}

function typeName(value: CelValue): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'boolean') return 'bool';
  if (value === null) return 'null_type';
  if (isCelUint(value)) return 'uint';
  if (isCelList(value)) return 'list';
  return 'map';
}

function expectOptional(value: CelValue, what: string): Optional {
  if (value instanceof Optional) return value;
  throw new Error(`cannot initialize optional ${what} from non-optional value ${typeName(value)}`);
}

/** The values of a list of optionals, without the empty ones (`optional.unwrap`). */
function unwrapList(list: Iterable<CelValue>): CelList {
  const values: CelValue[] = [];
  for (const item of list) {
    if (!(item instanceof Optional)) throw new Error(`value ${typeName(item)} is not optional`);
    if (item.value !== undefined) values.push(item.value);
  }
  return celList(values);
}

export const optionalLibrary: readonly CelFunc[] = [
  celFunc(OPTIONAL_SELECT_FUNCTION, [CelScalar.DYN, CelScalar.STRING], OPAQUE_TYPE, selectOptional),
  celFunc(
    OPTIONAL_HAS_FUNCTION,
    [CelScalar.DYN, CelScalar.STRING],
    CelScalar.BOOL,
    (operand, field) => selectOptional(operand, field).value !== undefined,
  ),
  celFunc(OPTIONAL_INDEX_FUNCTION, [CelScalar.DYN, CelScalar.DYN], OPAQUE_TYPE, indexOptional),
  celFunc(
    OPTIONAL_ELEMENTS_FUNCTION,
    [listType(CelScalar.DYN), listType(CelScalar.INT)],
    listType(CelScalar.DYN),
    (list, indices) => {
      const optional = new Set([...indices].map(Number));
      const values: CelValue[] = [];
      let i = 0;
      for (const item of list) {
        if (!optional.has(i++)) values.push(item);
        else {
          const value = expectOptional(item, 'list element').value;
          if (value !== undefined) values.push(value);
        }
      }
      return celList(values);
    },
  ),
  celFunc(
    OPTIONAL_ENTRIES_FUNCTION,
    [OPAQUE_TYPE, listType(CelScalar.DYN)],
    OPAQUE_TYPE,
    (map, keys) => {
      const optional = new Set<unknown>(keys);
      const entries = new Map<unknown, CelValue>();
      for (const [key, item] of map.entries()) {
        if (!optional.has(key)) entries.set(key, item);
        else {
          const value = expectOptional(item, 'map entry').value;
          if (value !== undefined) entries.set(key, value);
        }
      }
      return celMap(entries as never);
    },
  ),
  celMethod('first', listType(CelScalar.DYN), [], OPAQUE_TYPE, function () {
    const list = this as unknown as { size: number; get(i: number): CelValue | undefined };
    return list.size === 0 ? NONE : new Optional(list.get(0));
  }),
  celMethod('last', listType(CelScalar.DYN), [], OPAQUE_TYPE, function () {
    const list = this as unknown as { size: number; get(i: number): CelValue | undefined };
    return list.size === 0 ? NONE : new Optional(list.get(list.size - 1));
  }),
  celFunc('optional.unwrap', [listType(CelScalar.DYN)], listType(CelScalar.DYN), unwrapList),
  celMethod('unwrapOpt', listType(CelScalar.DYN), [], listType(CelScalar.DYN), function () {
    return unwrapList(this);
  }),
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
