/**
 * Helpers for the JSON-like data a resource spec holds: deep freeze, deep copy and deep equality.
 *
 * Specs are plain data (objects, arrays, strings, numbers, booleans, null). Keeping to that lets the
 * engine hand out stored resources without copying (they are frozen) and copy only when a writer
 * asks for a draft.
 */

import { explainOverflow } from './data-cycle.js';

/** A value made read-only all the way down. */
export type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

// Each helper is a recursive walk behind a guard: data that refers to itself (a spec holding
// itself, an array its own item) would otherwise recurse until the stack overflows, and the
// caller be told only `Maximum call stack size exceeded`. The guard costs nothing until then.

/** Whether a value is a JSON object: not `null`, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Freezes a value and everything reachable from it; returns the same value. */
export function deepFreeze<T>(value: T): T {
  try {
    return deepFreezeWalk(value);
  } catch (error) {
    throw explainOverflow(error, value);
  }
}

/** A mutable deep copy of plain data. Dates are copied; other class instances are shared. */
export function deepClone<T>(value: T): T {
  try {
    return deepCloneWalk(value);
  } catch (error) {
    throw explainOverflow(error, value);
  }
}

/** A frozen deep copy of plain data, in one pass (see {@link freezeCopyWalk}). */
export function freezeCopy<T>(value: T): T {
  try {
    return freezeCopyWalk(value);
  } catch (error) {
    throw explainOverflow(error, value);
  }
}

/**
 * `next` frozen, sharing what equals `prev`'s, or `prev` itself when the two are equal (see
 * {@link freezeSharingWalk}).
 */
export function freezeSharing<T>(next: T, prev: unknown): T {
  try {
    return freezeSharingWalk(next, prev);
  } catch (error) {
    throw explainOverflow(error, next, prev);
  }
}

/** Structural equality of plain data; key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  try {
    return deepEqualWalk(a, b);
  } catch (error) {
    throw explainOverflow(error, a, b);
  }
}

// The walks below go over own keys with `for...in` and a `hasOwnProperty` check rather than
// `Object.keys`: the same keys in the same order, without an array allocated per object walked
// (a good part of what storing a small resource allocated).

/** The walk of {@link deepFreeze}. */
function deepFreezeWalk<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (const item of value) deepFreezeWalk(item);
  } else {
    const record = value as Record<string, unknown>;
    for (const key in record)
      if (Object.prototype.hasOwnProperty.call(record, key)) deepFreezeWalk(record[key]);
  }
  return Object.freeze(value);
}

/** The walk of {@link deepClone}. */
function deepCloneWalk<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = deepCloneWalk(value[i]);
    return out as T;
  }
  if (value instanceof Date) return new Date(value.getTime()) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  if (!isPlainPrototype(proto)) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in record)
    if (Object.prototype.hasOwnProperty.call(record, key))
      defineOwn(out, key, deepCloneWalk(record[key]));
  return out as T;
}

/**
 * A frozen deep copy of plain data, in one pass: what `deepFreeze(deepClone(value))` gives,
 * without the intermediate mutable copy. A value that is already frozen is shared, not copied:
 * as in {@link deepFreeze}, frozen means frozen all the way down (what the state stores is).
 */
function freezeCopyWalk<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = freezeCopyWalk(value[i]);
    return Object.freeze(out) as T;
  }
  if (value instanceof Date) return Object.freeze(new Date(value.getTime())) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  // A class instance is shared by deepClone and frozen in place by deepFreeze: the same here.
  if (!isPlainPrototype(proto)) return deepFreezeWalk(value);
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in record)
    if (Object.prototype.hasOwnProperty.call(record, key))
      defineOwn(out, key, freezeCopyWalk(record[key]));
  return Object.freeze(out) as T;
}

/**
 * Freezes `next` (a mutable copy being stored in place of `prev`) and compares it with `prev` in
 * the same walk: returns `prev` itself when the two are {@link deepEqual}, and otherwise `next`
 * frozen, with every subtree that equals the one at the same place in `prev` replaced by `prev`'s
 * (frozen) subtree. One walk instead of an equality check and a freeze, and versions of a resource
 * share what did not change between them.
 */
function freezeSharingWalk<T>(next: T, prev: unknown): T {
  if (typeof next !== 'object' || next === null) return sameValue(next, prev) ? (prev as T) : next;
  if (next === prev) return next;
  if (Object.isFrozen(next) || typeof prev !== 'object' || prev === null) {
    return deepEqualWalk(next, prev) ? (prev as T) : deepFreezeWalk(next);
  }
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return deepFreezeWalk(next);
    let same = next.length === prev.length;
    for (let i = 0; i < next.length; i++) {
      const child: unknown = next[i];
      const shared = i < prev.length ? freezeSharingWalk(child, prev[i]) : deepFreezeWalk(child);
      if (shared !== child) next[i] = shared;
      if (same && !sameValue(shared, prev[i])) same = false;
    }
    return same ? (prev as T) : Object.freeze(next);
  }
  const proto: unknown = Object.getPrototypeOf(next);
  if (!isPlainPrototype(proto) || Array.isArray(prev) || prev instanceof Date) {
    return deepEqualWalk(next, prev) ? (prev as T) : deepFreezeWalk(next);
  }
  const record = next as Record<string, unknown>;
  const old = prev as Record<string, unknown>;
  let same = true;
  // Own keys of `next` seen, less those of `prev` once all matched: 0 when they are the same keys.
  let keys = 0;
  for (const key in record) {
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    keys++;
    const child = record[key];
    if (!Object.prototype.hasOwnProperty.call(old, key)) {
      deepFreezeWalk(child);
      same = false;
      continue;
    }
    const shared = freezeSharingWalk(child, old[key]);
    // An own key: assigning sets it, even when it is `__proto__`.
    if (shared !== child) record[key] = shared;
    if (same && !sameValue(shared, old[key])) same = false;
  }
  if (same) keys -= ownKeyCount(old);
  return same && keys === 0 ? (prev as T) : Object.freeze(next);
}

/** How many own enumerable string keys a record has (`Object.keys(record).length`, no array). */
function ownKeyCount(record: object): number {
  let count = 0;
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) count++;
  return count;
}

/** Identity, with NaN equal to itself (as {@link deepEqual} has it). */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/** The walk of {@link deepEqual}. */
function deepEqualWalk(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqualWalk(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  let keys = 0;
  for (const key in a) {
    if (!Object.prototype.hasOwnProperty.call(a, key)) continue;
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!deepEqualWalk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) {
      return false;
    }
    keys++;
  }
  // Every key of `a` is in `b`: equal when `b` has no more.
  return keys === ownKeyCount(b);
}

/**
 * Sets an own property even when the key is `__proto__`, so that copying untrusted data can never
 * change an object's prototype.
 */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

/**
 * Whether an object with prototype `proto` is a plain record: `Object.prototype`, none, or the
 * `Object.prototype` of another realm (a prototype that has none itself). Objects from another
 * realm reach the state when a test runner (jest) runs cosi in a `vm` context while the config
 * loads natively: their literals are plain data too, and must be copied, not shared frozen.
 */
function isPlainPrototype(proto: unknown): boolean {
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}
