/**
 * Values of the types the Kubernetes libraries add (URL, Quantity, Format, optional). The CEL
 * library cosi uses (`@bufbuild/cel`) has no opaque types outside protobuf messages, so each is
 * a one-entry CEL map: methods are declared on maps and check the class of their target, and
 * `==` compares the entry, which holds the value's canonical form.
 */

import { mapType, CelScalar, type CelMapType, type CelValue } from '@bufbuild/cel';

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
}

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
