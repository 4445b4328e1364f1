import { types } from 'node:util';

/** How long a description of a thrown value may get: it ends up in one line of a report. */
const MAX_DESCRIPTION = 200;

/**
 * Whether `value` is an `Error` that can be read safely: not a Proxy, an `Error` by its prototype
 * chain, whose `message` reads as a string. Never lets the value's code (a getter, a Proxy trap)
 * throw out of it. A getter that reads as a string once and throws on a later read is not caught
 * here: {@link messageOfThrown} guards each read.
 */
export function isSafeError(value: unknown): value is Error {
  if (typeof value !== 'object' || value === null || types.isProxy(value)) return false;
  try {
    if (!types.isNativeError(value) && !(value instanceof Error)) return false;
    for (let o: object | null = value; o !== null; o = Object.getPrototypeOf(o) as object | null) {
      if (types.isProxy(o)) return false;
      const d = Object.getOwnPropertyDescriptor(o, 'message');
      if (d === undefined) continue;
      if ('value' in d) return typeof d.value === 'string';
      // A getter (`DOMException` has one): an error if it reads as a string now.
      return typeof (value as { message?: unknown }).message === 'string';
    }
    return false;
  } catch {
    return false;
  }
}

/**
 * A property of a value that may be anything a user's code threw (a getter that throws, a Proxy
 * whose traps throw): `undefined` when it cannot be read.
 */
export function readSafely(value: unknown, key: PropertyKey): unknown {
  if (typeof value !== 'object' || value === null || types.isProxy(value)) return undefined;
  try {
    return (value as Record<PropertyKey, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * A thrown value in words, whatever it is: strings as they are, other primitives as `String`
 * gives them, objects as JSON when they have a JSON form, else by what they are. None of the
 * value's own code (`toString`, getters, Proxy traps) is called unguarded.
 *
 * @example
 * describeThrown(Object.create(null)); // 'a non-Error object with a null prototype: {}'
 */
export function describeThrown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'function') {
    const name = readSafely(value, 'name');
    return `a function${typeof name === 'string' && name !== '' ? ` ${name}` : ''} (not an Error)`;
  }
  if (typeof value !== 'object' || value === null) return String(value);
  if (types.isProxy(value)) return 'a Proxy (not an Error)';
  if (isErrorLike(value)) return 'an Error whose message cannot be read';
  let prototype: unknown;
  try {
    prototype = Object.getPrototypeOf(value);
  } catch {
    prototype = undefined;
  }
  const what =
    prototype === null ? 'a non-Error object with a null prototype' : 'a non-Error object';
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  return json === undefined ? what : `${what}: ${clip(json)}`;
}

/**
 * The message of a thrown value: an `Error`'s message, or {@link describeThrown} of anything
 * else.
 */
export function messageOfThrown(value: unknown): string {
  if (!isSafeError(value)) return describeThrown(value);
  const message = readSafely(value, 'message');
  return typeof message === 'string' ? message : 'an Error whose message cannot be read';
}

/** What a user's code threw that is not an `Error` safe to read: the value is kept as `thrown`. */
export class ThrownValueError extends Error {
  constructor(readonly thrown: unknown) {
    super(describeThrown(thrown));
    this.name = 'ThrownValueError';
  }
}

function isErrorLike(value: object): boolean {
  try {
    return types.isNativeError(value) || value instanceof Error;
  } catch {
    return false;
  }
}

function clip(text: string): string {
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}
