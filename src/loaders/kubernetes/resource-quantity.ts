/**
 * Kubernetes resource quantities (`500m`, `1.5Gi`, `2e3`), parsed exactly as apimachinery's
 * `resource.ParseQuantity` accepts them: an integer scaled by a power of ten. Shared by the
 * built-in kinds' checks (`container-checks.ts`) and the CEL `quantity` library, which wraps it.
 */

/** The message `resource.ParseQuantity` refuses a quantity with. */
export const QUANTITY_SYNTAX_MESSAGE =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** The message `resource.ParseQuantity` refuses a number with a suffix it does not know. */
export const QUANTITY_SUFFIX_MESSAGE = "unable to parse quantity's suffix";

/** The shape apimachinery checks first: a number, then what may be a suffix (`1Gii` passes). */
const QUANTITY_SHAPE = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eEinumkKMGTP]*[-+]?[0-9]*$/;

/**
 * The longest text read as a quantity: the shape's digits before and after a point may trade
 * places, so matching it takes time quadratic in the length (50000 digits: 13 s); longer texts
 * are refused by their length before any match.
 */
const MAX_QUANTITY_LENGTH = 1000;

/** What `resource.ParseQuantity` says of a text it refuses: its shape, or its suffix. */
export function quantityError(text: string): string {
  return text.length <= MAX_QUANTITY_LENGTH && QUANTITY_SHAPE.test(text)
    ? QUANTITY_SUFFIX_MESSAGE
    : QUANTITY_SYNTAX_MESSAGE;
}

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
  const match = text.length > MAX_QUANTITY_LENGTH ? null : QUANTITY.exec(text);
  const [, sign = '', whole = '', fraction = '', suffix, exponent] = match ?? [];
  if (match === null || (whole === '' && fraction === '')) {
    throw new Error(quantityError(text));
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

/**
 * A quantity as written in a document (a string or a number), parsed; undefined when it is
 * neither or does not parse: the schema's quantity check reports that, so a Go check skips it.
 */
export function writtenQuantity(value: unknown): ParsedQuantity | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  try {
    return parseResourceQuantity(String(value));
  } catch {
    return undefined;
  }
}

/** -1, 0 or 1 as `a` is less than, equal to or more than `b`. */
export function compareQuantities(a: ParsedQuantity, b: ParsedQuantity): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.units * 10n ** BigInt(scale - a.scale);
  const right = b.units * 10n ** BigInt(scale - b.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

const DECIMAL_SUFFIXES: Readonly<Record<number, string>> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * How apimachinery's `Quantity.String()` prints a parsed quantity: in the format its suffix
 * chose (binary `Ki`..., a decimal exponent `e3`, else decimal SI), with the largest suffix that
 * keeps the number whole (`1000m` is `1`, `1024Ki` is `1Mi`, `1500` stays `1500`); a binary
 * quantity below 1024 or not whole prints in decimal SI. `undefined` for what it cannot parse
 * and for a value finer than a nano, which Go rounds first (not needed by its callers).
 */
export function canonicalQuantity(text: string): string | undefined {
  let parsed: ParsedQuantity;
  try {
    parsed = parseResourceQuantity(text);
  } catch {
    return undefined;
  }
  const suffix = /(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)$/.exec(text)?.[1] ?? '';
  const exponentFormat = /^[eE][+-]?[0-9]/.test(suffix);
  let mantissa = parsed.units;
  let exponent = -parsed.scale;
  if (mantissa === 0n) return '0';
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  if (suffix.endsWith('i') && exponent >= 0) {
    let whole = mantissa * 10n ** BigInt(exponent);
    if (whole >= 1024n || whole <= -1024n) {
      let power = 0;
      while (power < 6 && whole % 1024n === 0n) {
        whole /= 1024n;
        power++;
      }
      return `${whole}${BINARY_SUFFIXES[power]}`;
    }
  }
  while (((exponent % 3) + 3) % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  if (exponent < -9) return undefined;
  if (exponentFormat) return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  if (exponent > 18) {
    mantissa *= 10n ** BigInt(exponent - 18);
    exponent = 18;
  }
  return `${mantissa}${DECIMAL_SUFFIXES[exponent]}`;
}
