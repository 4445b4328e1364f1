/**
 * The Kubernetes `quantity` library: `quantity(s)` parses a resource quantity (`500m`, `1.5Gi`,
 * `2e3`), `isQuantity(s)` says whether it would, and a quantity answers `compareTo(q)`,
 * `isLessThan(q)`, `isGreaterThan(q)`, `add(q | int)`, `sub(q | int)`, `asInteger()`,
 * `asApproximateFloat()`, `sign()` and `isInteger()`. Values are exact: an integer scaled by a
 * power of ten, so `quantity("1") == quantity("1000m")`.
 */

import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { charge, sizeCost } from '../cost-budget.js';
import { parseResourceQuantity } from '../../kubernetes/resource-quantity.js';
import { expectTarget, OPAQUE_TYPE, ORDER_METHODS, OrderedValue } from '../opaque-value.js';

/** `units / 10^scale`, normalised (no trailing zeros while `scale > 0`). */
export class Quantity extends OrderedValue {
  override get celTypeName(): string {
    return 'kubernetes.Quantity';
  }

  readonly units: bigint;
  readonly scale: number;

  constructor(units: bigint, scale: number) {
    let u = units;
    let s = scale;
    while (s > 0 && u % 10n === 0n) {
      u /= 10n;
      s--;
    }
    super('quantity', `${u}e-${s}`);
    this.units = u;
    this.scale = s;
  }

  /** Both quantities' units at a common scale. */
  aligned(other: Quantity): [bigint, bigint, number] {
    const scale = Math.max(this.scale, other.scale);
    return [
      this.units * 10n ** BigInt(scale - this.scale),
      other.units * 10n ** BigInt(scale - other.scale),
      scale,
    ];
  }

  override compare(other: Quantity): number {
    const [a, b] = this.aligned(other);
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

/** Parses a quantity; throws the way `resource.ParseQuantity` refuses one. */
export function parseQuantity(text: string): Quantity {
  charge(sizeCost(text.length));
  const { units, scale } = parseResourceQuantity(text);
  return new Quantity(units, scale);
}

function isQuantity(text: string): boolean {
  try {
    parseQuantity(text);
    return true;
  } catch {
    return false;
  }
}

const INT64_MAX = 0x7fffffffffffffffn;
const INT64_MIN = -0x8000000000000000n;

function operand(value: unknown, method: string): Quantity {
  return typeof value === 'bigint' ? new Quantity(value, 0) : expectTarget(value, Quantity, method);
}

function arithmetic(name: 'add' | 'sub', sign: 1n | -1n): CelFunc[] {
  const apply = (target: unknown, other: unknown): Quantity => {
    const [a, b, scale] = expectTarget(target, Quantity, name).aligned(operand(other, name));
    return new Quantity(a + sign * b, scale);
  };
  return [
    celMethod(name, OPAQUE_TYPE, [OPAQUE_TYPE], OPAQUE_TYPE, function (other) {
      return apply(this, other);
    }),
    celMethod(name, OPAQUE_TYPE, [CelScalar.INT], OPAQUE_TYPE, function (other) {
      return apply(this, other);
    }),
  ];
}

export const quantityLibrary: readonly CelFunc[] = [
  celFunc('quantity', [CelScalar.STRING], OPAQUE_TYPE, (text) => parseQuantity(text)),
  celFunc('isQuantity', [CelScalar.STRING], CelScalar.BOOL, (text) => isQuantity(text)),
  ...ORDER_METHODS,
  ...arithmetic('add', 1n),
  ...arithmetic('sub', -1n),
  celMethod('asInteger', OPAQUE_TYPE, [], CelScalar.INT, function () {
    const q = expectTarget(this, Quantity, 'asInteger');
    if (q.scale !== 0 || q.units > INT64_MAX || q.units < INT64_MIN) {
      throw new Error('cannot convert value to integer');
    }
    return q.units;
  }),
  celMethod('asApproximateFloat', OPAQUE_TYPE, [], CelScalar.DOUBLE, function () {
    const q = expectTarget(this, Quantity, 'asApproximateFloat');
    return Number(q.units) / 10 ** q.scale;
  }),
  celMethod('sign', OPAQUE_TYPE, [], CelScalar.INT, function () {
    const units = expectTarget(this, Quantity, 'sign').units;
    return units > 0n ? 1n : units < 0n ? -1n : 0n;
  }),
  celMethod('isInteger', OPAQUE_TYPE, [], CelScalar.BOOL, function () {
    const q = expectTarget(this, Quantity, 'isInteger');
    return q.scale === 0 && q.units <= INT64_MAX && q.units >= INT64_MIN;
  }),
];
