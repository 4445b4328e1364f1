/**
 * Values of the types the Kubernetes libraries add (URL, Quantity, Format, optional). The CEL
 * library cosi uses (`@bufbuild/cel`) has no opaque types outside protobuf messages, so each is
 * a one-entry CEL map: methods are declared on maps and check the class of their target, and
 * `==` compares the entry, which holds the value's canonical form.
 */

import {
  celFunc,
  celMethod,
  mapType,
  CelScalar,
  type CelFunc,
  type CelMapType,
  type CelValue,
} from '@bufbuild/cel';

const MAP = Symbol.for('@bufbuild/cel/map');

/** The CEL type methods of opaque values are declared on. */
export const OPAQUE_TYPE: CelMapType = mapType(CelScalar.DYN, CelScalar.DYN);

/** Base of the library types: a read-only map of one entry, `{ [kind]: canonical }`. */
export abstract class OpaqueValue {
  readonly [MAP] = {};
  readonly #entry: readonly [string, CelValue];

  constructor(kind: string, canonical: CelValue) {
    this.#entry = [kind, canonical];
  }

  get size(): number {
    return 1;
  }

  get(key: unknown): CelValue | undefined {
    return key === this.#entry[0] ? this.#entry[1] : undefined;
  }

  has(key: unknown): boolean {
    return key === this.#entry[0];
  }

  forEach(callback: (value: CelValue, key: string, map: this) => void, thisArg?: unknown): void {
    callback.call(thisArg, this.#entry[1], this.#entry[0], this);
  }

  *entries(): IterableIterator<[string, CelValue]> {
    yield [this.#entry[0], this.#entry[1]];
  }

  *keys(): IterableIterator<string> {
    yield this.#entry[0];
  }

  *values(): IterableIterator<CelValue> {
    yield this.#entry[1];
  }

  [Symbol.iterator](): IterableIterator<[string, CelValue]> {
    return this.entries();
  }

  /**
   * The name of the value's CEL type in the API server's libraries (`net.IP`), what `type()`
   * gives; `undefined`: `type()` gives `map`, the type of the value here.
   */
  get celTypeName(): string | undefined {
    return undefined;
  }

  /**
   * Why the value may not be the left operand of `==` or `!=` (as cel-go asks the left operand's
   * `Equal`); `undefined`: it compares as its entry.
   */
  comparisonError(): string | undefined {
    return undefined;
  }

  /** What `string(value)` returns; `undefined`: the type has no conversion to string. */
  toCelString(): string | undefined {
    return undefined;
  }
}

/**
 * A library type with an order (Quantity, Semver). Both declare `compareTo`, `isLessThan` and
 * `isGreaterThan` on the same CEL type (opaque values are maps), and `@bufbuild/cel` keeps one
 * function per signature, so the methods are declared once here and compare any two values of
 * the same class.
 */
export abstract class OrderedValue extends OpaqueValue {
  /** Negative, zero or positive as this value is below, equal to or above `other`. */
  abstract compare(other: this): number;
}

function ordered(target: unknown, other: unknown, method: string): number {
  const value = expectTarget(target, OrderedValue, method);
  const operand = expectTarget(other, OrderedValue, method);
  if (operand.constructor !== value.constructor) {
    throw new Error(`found no matching overload for '${method}'`);
  }
  return value.compare(operand);
}

/** `compareTo`, `isLessThan`, `isGreaterThan` of every {@link OrderedValue}. */
export const ORDER_METHODS: readonly CelFunc[] = [
  celMethod('compareTo', OPAQUE_TYPE, [OPAQUE_TYPE], CelScalar.INT, function (other) {
    return BigInt(Math.sign(ordered(this, other, 'compareTo')));
  }),
  celMethod('isLessThan', OPAQUE_TYPE, [OPAQUE_TYPE], CelScalar.BOOL, function (other) {
    return ordered(this, other, 'isLessThan') < 0;
  }),
  celMethod('isGreaterThan', OPAQUE_TYPE, [OPAQUE_TYPE], CelScalar.BOOL, function (other) {
    return ordered(this, other, 'isGreaterThan') > 0;
  }),
];

/** `string(value)` of the library types that have a string form (IP, CIDR). */
export const STRING_CONVERSION: CelFunc = celFunc(
  'string',
  [OPAQUE_TYPE],
  CelScalar.STRING,
  (value) => {
    const text = value instanceof OpaqueValue ? value.toCelString() : undefined;
    if (text === undefined) throw new Error("found no matching overload for 'string'");
    return text;
  },
);

/**
 * The target of a method as an instance of `type`; a CEL error (no matching overload) otherwise.
 */
export function expectTarget<T>(
  target: unknown,
  type: abstract new (...args: never[]) => T,
  method: string,
): T {
  if (target instanceof type) return target;
  throw new Error(`found no matching overload for '${method}'`);
}
