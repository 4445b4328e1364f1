/**
 * CEL's `int`, `uint` and `double` of a string as cel-go reads them, with Go's `strconv`:
 * `ParseInt(s, 10, 64)`, `ParseUint(s, 10, 64)`, `ParseFloat(s, 64)`. `@bufbuild/cel` reads them
 * with JavaScript's conversions, which take what Go refuses (`int(" 12")`, `int("0x10")`,
 * `int("")` is 0, `double("0x10")`), refuse what Go takes (`double("inf")` is NaN) and word
 * errors as JavaScript does (`Cannot convert 12abc to a BigInt`). A rule that converts a field
 * (`int(self.port)`) must pass and fail on the strings the API server's does, with its words:
 * cel-go's `type conversion error from 'string' to 'int'`, whatever `strconv` found.
 */

import { celFunc, CelScalar, celUint, type CelFunc } from '@bufbuild/cel';
import { conversionError } from './evaluation-error.js';

const { INT, UINT, DOUBLE, STRING } = CelScalar;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Base 10 as `ParseInt` reads it: a sign, then digits (no `_`, which base 10 refuses). */
const DECIMAL_INTEGER = /^[+-]?[0-9]+$/;
const UNSIGNED_INTEGER = /^[0-9]+$/;
/** `ParseFloat`'s hexadecimal form: the `p` exponent is required. */
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/;
/** `ParseFloat`'s words: `inf` or `infinity` with a sign or none, `nan` without; any case. */
const INFINITY = /^([+-]?)(?:inf|infinity)$/i;
const NOT_A_NUMBER = /^nan$/i;

/**
 * `ParseFloat`'s decimal form, `[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?`, read once: as
 * a backtracking regular expression, a long run of digits that ends in something else took time
 * quadratic in its length (100,000 digits: 16 s), and a rule's `double(self.x)` reads a field.
 */
function isDecimalFloat(text: string): boolean {
  let i = text.startsWith('+') || text.startsWith('-') ? 1 : 0;
  const digits = (): number => {
    const from = i;
    while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i - from;
  };
  let mantissa = digits();
  if (text.charAt(i) === '.') {
    i++;
    mantissa += digits();
  }
  if (mantissa === 0) return false;
  if (text.charAt(i) === 'e' || text.charAt(i) === 'E') {
    i++;
    if (text.charAt(i) === '+' || text.charAt(i) === '-') i++;
    if (digits() === 0) return false;
  }
  return i === text.length;
}

/** `strconv.ParseInt(text, 10, 64)`; `undefined` where it errs. */
export function parseGoInt(text: string): bigint | undefined {
  if (!DECIMAL_INTEGER.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

/** `strconv.ParseUint(text, 10, 64)`; `undefined` where it errs. */
export function parseGoUint(text: string): bigint | undefined {
  if (!UNSIGNED_INTEGER.test(text)) return undefined;
  const value = BigInt(text);
  return value > UINT64_MAX ? undefined : value;
}

/**
 * Go's `underscoreOK`: `_` only between digits, or between a base prefix and a digit, as in a
 * Go literal (`1_000.5`, `0x_1p0`); `ParseFloat` takes such a text and drops them.
 */
function underscoresOk(text: string): boolean {
  let body = text.replace(/^[+-]/, '');
  let seen: 'start' | 'digit' | 'underscore' | 'other' = 'start';
  let hex = false;
  if (/^0[bBoOxX]/.test(body)) {
    hex = /^0[xX]/.test(body);
    body = body.slice(2);
    seen = 'digit';
  }
  for (const char of body) {
    if (/[0-9]/.test(char) || (hex && /[a-fA-F]/.test(char))) {
      seen = 'digit';
    } else if (char === '_') {
      if (seen !== 'digit') return false;
      seen = 'underscore';
    } else {
      if (seen === 'underscore') return false;
      seen = 'other';
    }
  }
  return seen !== 'underscore';
}

/** `strconv.ParseFloat(text, 64)`; `undefined` where it errs (a syntax error, out of range). */
export function parseGoFloat(text: string): number | undefined {
  if (!text.includes('_')) return parseGoFloatDigits(text);
  return underscoresOk(text) ? parseGoFloatDigits(text.replaceAll('_', '')) : undefined;
}

/** `ParseFloat` of `text` with its underscores gone. */
function parseGoFloatDigits(text: string): number | undefined {
  const infinity = INFINITY.exec(text);
  if (infinity !== null) return infinity[1] === '-' ? -Infinity : Infinity;
  if (NOT_A_NUMBER.test(text)) return NaN;
  let value: number;
  if (isDecimalFloat(text)) {
    value = Number(text);
  } else {
    const hex = HEX_FLOAT.exec(text);
    const [, sign = '', whole = '', fraction = '', exponent = '0'] = hex ?? [];
    if (hex === null || whole.length + fraction.length === 0) return undefined;
    const mantissa = Number.parseInt(`${whole}${fraction}` || '0', 16);
    value = mantissa * 2 ** (Number(exponent) - 4 * fraction.length);
    if (sign === '-') value = -value;
  }
  return Number.isFinite(value) ? value : undefined;
}

/** The standard conversions of a string, replaced (`cel-environment.ts` adds them). */
export const goNumberParsingFunctions: readonly CelFunc[] = [
  celFunc('int', [STRING], INT, (text) => parseGoInt(text) ?? conversionError('string', 'int')),
  celFunc('uint', [STRING], UINT, (text) =>
    celUint(parseGoUint(text) ?? conversionError('string', 'uint')),
  ),
  celFunc(
    'double',
    [STRING],
    DOUBLE,
    (text) => parseGoFloat(text) ?? conversionError('string', 'double'),
  ),
];
