/**
 * The values a user's `mapInput` or `mapEvent` returned, checked and named: whether one is a
 * pointer, and any of them in words for the error that says it is not.
 */

import type { Pointer } from '../resource/pointer.js';

/** Whether a value has a pointer's fields: a namespace, a type and an id, all strings. */
export function isPointerLike(value: unknown): value is Pointer {
  if (typeof value !== 'object' || value === null) return false;
  const { namespace, type, id } = value as Partial<Record<keyof Pointer, unknown>>;
  return typeof namespace === 'string' && typeof type === 'string' && typeof id === 'string';
}

/** A value a user's mapping returned, in words: strings quoted, objects as short JSON. */
export function describeReturned(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object' || value === null) return String(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return Array.isArray(value) ? 'an array' : 'an object';
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}
