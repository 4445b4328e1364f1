/**
 * A mapping key as kubectl sends it. `sigs.k8s.io/yaml` reads a manifest with go-yaml v2 (YAML
 * 1.1), whose plain keys may resolve to booleans and numbers, and turns each key into the JSON
 * object key the API server gets: `on:` is the key `"true"`, `0755:` the key `"493"`, `1_000:`
 * the key `"1000"`, a float key printed as Go's `FormatFloat(f, 'g', -1, 32)` (`1e7:` is
 * `"1e+07"`), and a null key (`~:`, or none) is refused: `unsupported map key of type: <nil>`.
 * YAML 1.2, as cosi reads its own documents, keeps `on`, `0755` and `1_000` as written.
 */

import { goYamlNumber } from './go-yaml-numbers.js';

/** How a plain key is read otherwise by kubectl, with what it becomes. */
export type KubectlKey =
  | { readonly kind: 'boolean' | 'octal' | 'number' | 'string'; readonly key: string }
  | { readonly kind: 'null' };

/**
 * The plain scalars go-yaml v2 reads as booleans where YAML 1.2 reads strings: exactly these
 * spellings (`yEs` is a string to both).
 */
export const GO_YAML_BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON'].map((s) => [s, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF'].map((s) => [s, false] as const),
]);

/** How YAML 1.2 and go-yaml write infinity: other infinite numbers overflowed. */
const INFINITY = /^[-+]?\.(?:inf|Inf|INF)$/;

/** A YAML 1.1 octal (`0777`): a decimal integer in YAML 1.2. */
export const YAML11_OCTAL = /^[-+]?0[0-7]+$/;

/**
 * What kubectl makes of an untagged plain key whose YAML 1.2 value is `value` and whose text is
 * `source`, when that is not the key YAML 1.2 gives (`String(value)`); undefined when both agree.
 */
export function kubectlKey(source: string, value: unknown): KubectlKey | undefined {
  if (value === null) return { kind: 'null' };
  if (typeof value === 'string') {
    const boolean = GO_YAML_BOOLEANS.get(value);
    if (boolean !== undefined) return { kind: 'boolean', key: String(boolean) };
    const number = goYamlNumber(value);
    if (number === undefined) return undefined;
    return { kind: 'number', key: goNumberKey(value.replaceAll('_', ''), number) };
  }
  if (typeof value !== 'number') return undefined;
  // Past a float64's range go-yaml's `ParseFloat` fails, and the scalar stays a string.
  if (!Number.isFinite(value) && !Number.isNaN(value) && !INFINITY.test(source)) {
    return { kind: 'string', key: source };
  }
  if (YAML11_OCTAL.test(source)) {
    const digits = source.replace(/^[-+]?0+/, '') || '0';
    const octal = (source.startsWith('-') ? -1 : 1) * parseInt(digits, 8);
    return { kind: 'octal', key: String(octal) };
  }
  const key = goNumberKey(source, value);
  return key === String(value) ? undefined : { kind: 'number', key };
}

/**
 * The key of a number go-yaml read from `text`: an integer as written, a float as Go prints it;
 * digits after a leading zero that are no octal (`089`) are a float to go-yaml.
 */
function goNumberKey(text: string, value: number): string {
  const float =
    (!/^[-+]?0[xX]/.test(text) && /[.eEnN]/.test(text)) || /^[-+]?0[0-9]*[89]/.test(text);
  return float ? formatGoFloat32(value) : String(value);
}

/**
 * `strconv.FormatFloat(f, 'g', -1, 32)` with go-yaml's names for the infinities and NaN: the
 * shortest digits that identify the float32, in exponent form below 1e-4 and from 1e6.
 */
export function formatGoFloat32(value: number): string {
  const f = Math.fround(value);
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const sign = f < 0 ? '-' : '';
  let digits = '';
  let exponent = 0;
  for (let precision = 1; precision <= 9; precision++) {
    const [mantissa = '', power = '0'] = Math.abs(f)
      .toExponential(precision - 1)
      .split('e');
    if (Math.fround(Number(`${sign}${mantissa}e${power}`)) === f) {
      digits = mantissa.replace('.', '');
      exponent = Number(power);
      break;
    }
  }
  if (exponent < -4 || exponent >= 6) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  const point = exponent + 1;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
