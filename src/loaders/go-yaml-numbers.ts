/**
 * The plain scalars go-yaml v2 (YAML 1.1, under `sigs.k8s.io/yaml`, which kubectl reads
 * manifests with) resolves as numbers where YAML 1.2's core schema keeps a string: digits with
 * `_` between them (`1_000`, `10_000.5`, `.1_0`: go-yaml drops every `_`), binary (`0b1010`), and the
 * prefixes Go's `strconv.ParseInt` takes in either case (`0X1F`, `0O17`). A scalar is tried only
 * when it starts with a digit, a sign or a point, as go-yaml tries it.
 */

/** go-yaml v2's float syntax, tried when the integer parse fails. */
const GO_YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** A float starting with its point, `_` between digits only (`.1_0`, not `._1`). */
const DOT_FLOAT = /^\.[0-9]+(?:_[0-9]+)*(?:[eE][-+]?[0-9]+(?:_[0-9]+)*)?$/;
/** `strconv.ParseInt(s, 0, 64)`'s syntax: a sign, then hex, octal, binary or decimal digits. */
const GO_INTEGER = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * The number go-yaml v2 reads `plain` as, when YAML 1.2 reads it as a string (a `plain` that
 * YAML 1.2 reads as a number is not asked about); undefined when go-yaml keeps a string too.
 */
export function goYamlNumber(plain: string): number | undefined {
  // A leading `.` is read by `strconv.ParseFloat` as written: `_` only between digits.
  if (plain.startsWith('.')) {
    return DOT_FLOAT.test(plain) ? Number(plain.replaceAll('_', '')) : undefined;
  }
  if (!/^[-+0-9]/.test(plain)) return undefined;
  const text = plain.replaceAll('_', '');
  const integer = goInteger(text);
  if (integer !== undefined) return integer;
  return GO_YAML_FLOAT.test(text) ? Number(text) : undefined;
}

/** `ParseInt(text, 0, 64)`, then `ParseUint`: the integer, or undefined out of their range. */
function goInteger(text: string): number | undefined {
  const match = GO_INTEGER.exec(text);
  if (match === null) return undefined;
  const [, sign, digits = ''] = match;
  const prefix = digits.slice(0, 2).toLowerCase();
  const magnitude =
    prefix === '0x' || prefix === '0o' || prefix === '0b'
      ? BigInt(`${prefix}${digits.slice(2)}`)
      : digits.length > 1 && digits.startsWith('0')
        ? BigInt(`0o${digits.slice(1)}`)
        : BigInt(digits);
  const value = sign === '-' ? -magnitude : magnitude;
  if (value < INT64_MIN || value > UINT64_MAX) return undefined;
  return Number(value);
}
