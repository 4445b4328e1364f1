/**
 * kro's `runtime` library (v0.9.x, `pkg/cel/library/runtime.go`), for an RGD's custom status
 * conditions (`spec.schema.status.conditions`), written from its documented behaviour:
 *
 * - `runtime.newCondition({type: 'X', status: 'True', reason: '', message: ''})`: a condition.
 *   Its argument is a map literal whose keys are bare names, rewritten into strings as kro's
 *   parse-time macro does ({@link rewriteRuntimeCalls}); a quoted or computed key, a key other
 *   than the four, one written twice, or no `type` or `status`, is refused when the RGD loads.
 *   When evaluated, each value must be a string, `type` not empty and `status` one of `True`,
 *   `False`, `Unknown`.
 * - `runtime.condition(obj, 'X')`: the condition of type `X` of `obj.status.conditions`, or an
 *   empty one (every field `''`) when it has none.
 *
 * A condition is a map of the four keys, each a string, that the library made: rendered marked as
 * one (`LIBRARY_CONDITION`), where a map of the same keys from elsewhere is not.
 */

import { celFunc, celMap, CelScalar, isCelMap, mapType, type CelValue } from '@bufbuild/cel';
import { fromCelValue } from './cel-json.js';
import { madeCondition } from './library-conditions.js';
import { CONDITION_KEYS, CONDITION_STATUSES, type RuntimeCondition } from './condition-types.js';

const { STRING, DYN } = CelScalar;

function conditionValue(condition: RuntimeCondition): CelValue {
  return madeCondition(
    celMap(new Map<string, CelValue>(CONDITION_KEYS.map((key) => [key, condition[key]]))),
  );
}

function newCondition(arg: CelValue): CelValue {
  if (!isCelMap(arg)) throw new Error('runtime.newCondition: argument must be a map');
  const condition: RuntimeCondition = { type: '', status: '', reason: '', message: '' };
  for (const [key, value] of arg.entries()) {
    if (typeof value !== 'string') {
      throw new Error(
        `runtime.newCondition: ${typeof key === 'string' ? key : 'a key'} must be a string, got ${typeName(value)}`,
      );
    }
    if (key === 'type' && value === '')
      throw new Error('runtime.newCondition: type must not be empty');
    if (key === 'status' && !CONDITION_STATUSES.has(value)) {
      throw new Error(
        `runtime.newCondition: status must be one of True, False, Unknown (got ${JSON.stringify(value)})`,
      );
    }
    if ((CONDITION_KEYS as readonly unknown[]).includes(key)) {
      condition[key as keyof RuntimeCondition] = value;
    }
  }
  return conditionValue(condition);
}

function typeName(value: CelValue): string {
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'boolean') return 'bool';
  if (value === null) return 'null_type';
  return isCelMap(value) ? 'map' : 'list';
}

function condition(obj: CelValue, wanted: string): CelValue {
  const document = fromCelValue(obj);
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new Error('runtime.condition: obj must be an object');
  }
  const status = (document as Record<string, unknown>).status;
  const conditions =
    typeof status === 'object' && status !== null
      ? (status as Record<string, unknown>).conditions
      : undefined;
  const found = Array.isArray(conditions)
    ? (conditions as unknown[]).find(
        (c) =>
          typeof c === 'object' && c !== null && (c as Record<string, unknown>).type === wanted,
      )
    : undefined;
  const read = (key: string): string => {
    const value = (found as Record<string, unknown> | undefined)?.[key];
    return typeof value === 'string' ? value : '';
  };
  return conditionValue({
    type: read('type'),
    status: read('status'),
    reason: read('reason'),
    message: read('message'),
  });
}

/** The library's functions, for kro's CEL environment. */
export const RUNTIME_FUNCTIONS = [
  celFunc('runtime.newCondition', [mapType(DYN, DYN)], DYN, newCondition),
  celFunc('runtime.condition', [DYN, STRING], DYN, condition),
];
