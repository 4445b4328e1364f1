/**
 * Kubernetes resource quantities (`500m`, `1.5Gi`, `2e3`), parsed exactly as apimachinery's
 * `resource.ParseQuantity` accepts them: an integer scaled by a power of ten. Shared by the
 * built-in kinds' checks (`container-checks.ts`) and the CEL `quantity` library, which wraps it.
 */

/** The message `resource.ParseQuantity` refuses a quantity with. */
export const QUANTITY_SYNTAX_MESSAGE =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** `units / 10^scale`. */
export interface ParsedQuantity {
  readonly units: bigint;
  readonly scale: number;
}

const QUANTITY =
  /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?[0-9]+))?$/;
const BINARY: Readonly<Record<string, bigint>> = { Ki: 1n, Mi: 2n, Gi: 3n, Ti: 4n, Pi: 5n, Ei: 6n };
const DECIMAL: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
/** Exponents past this are refused: `1e999999999` would make a bigint of a billion digits. */
const MAX_EXPONENT = 1000;

/** Parses a quantity; throws the way `resource.ParseQuantity` refuses one. */
export function parseResourceQuantity(text: string): ParsedQuantity {
  const match = QUANTITY.exec(text);
  const [, sign = '', whole = '', fraction = '', suffix, exponent] = match ?? [];
  if (match === null || (whole === '' && fraction === '') || text.length > 1000) {
    throw new Error(QUANTITY_SYNTAX_MESSAGE);
  }
  let units = BigInt(
    `${sign}${whole}${fraction}` === sign ? '0' : `${sign}${whole || '0'}${fraction}`,
  );
  let scale = fraction.length;
  let power = 0;
  if (suffix !== undefined && suffix in BINARY) {
    units *= 1024n ** (BINARY[suffix] as bigint);
  } else if (suffix !== undefined) {
    power = DECIMAL[suffix] as number;
  } else if (exponent !== undefined) {
    power = Number(exponent);
    if (Math.abs(power) > MAX_EXPONENT) throw new Error(`the exponent of ${text} is out of range`);
  }
  if (power > 0) units *= 10n ** BigInt(power);
  else scale -= power;
  return { units, scale };
}

/** -1, 0 or 1 as `a` is less than, equal to or more than `b`. */
export function compareQuantities(a: ParsedQuantity, b: ParsedQuantity): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.units * 10n ** BigInt(scale - a.scale);
  const right = b.units * 10n ** BigInt(scale - b.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}
