/**
 * `format`'s `%e` clause as the API server renders it. Its strings extension (cel-go, version 2
 * of the library in the API server's environment) formats with golang.org/x/text's printer for
 * `en_US`, which writes scientific notation with a superscript exponent of at least two digits:
 * `'%e'.format([3.14])` is `3.140000×10⁰⁰`, `'%.2e'.format([-0.00123])` is `-1.23×10⁻⁰³`
 * (apiextensions-apiserver's `TestValidationExpressions`). `@bufbuild/cel` writes `3.140000e+00`:
 * each `%e` of a double is rendered here and handed to it as a string for `%s`.
 */

import { celList, type CelList, type CelValue } from '@bufbuild/cel';

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const SUPERSCRIPT_MINUS = '⁻';
/** The most fraction digits `Intl.NumberFormat` takes. */
const MAX_PRECISION = 100;

const formats = new Map<number, Intl.NumberFormat>();

/** A double in scientific notation with `precision` fraction digits, as the API server writes it. */
export function formatScientific(value: number, precision: number): string {
  let format = formats.get(precision);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', {
      notation: 'scientific',
      minimumFractionDigits: precision,
      maximumFractionDigits: precision,
      roundingMode: 'halfEven',
      useGrouping: false,
    });
    formats.set(precision, format);
  }
  let mantissa = '';
  let exponent = '';
  let negativeExponent = false;
  let inExponent = false;
  for (const part of format.formatToParts(value)) {
    if (part.type === 'exponentSeparator') inExponent = true;
    else if (part.type === 'exponentMinusSign') negativeExponent = true;
    else if (inExponent) exponent += part.value;
    else mantissa += part.value;
  }
  const digits = exponent
    .padStart(2, '0')
    .replace(/[0-9]/g, (digit) => SUPERSCRIPT_DIGITS[Number(digit)] ?? digit);
  return `${mantissa}×10${negativeExponent ? SUPERSCRIPT_MINUS : ''}${digits}`;
}

/**
 * The format string and arguments with each `%e` (`%.3e`) of a finite double replaced by `%s` of
 * its rendering; anything else (another clause, a `%e` of a value that is no double, a malformed
 * string) is left for `format` to render or refuse.
 */
export function withScientificClauses(
  text: string,
  args: CelList,
): { text: string; args: CelList } {
  if (!text.includes('e')) return { text, args };
  let out = '';
  const values: CelValue[] = [];
  let changed = false;
  let argument = 0;
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    if (char !== '%') {
      out += char;
      i++;
      continue;
    }
    if (text[i + 1] === '%') {
      out += '%%';
      i += 2;
      continue;
    }
    let j = i + 1;
    let precision = 6;
    if (text[j] === '.') {
      j++;
      const start = j;
      while (j < text.length && /[0-9]/.test(text[j] ?? '')) j++;
      precision = Number(text.slice(start, j) || '0');
    }
    const clause = text[j];
    const value = args.get(argument);
    argument++;
    if (
      clause === 'e' &&
      typeof value === 'number' &&
      Number.isFinite(value) &&
      precision <= MAX_PRECISION
    ) {
      out += '%s';
      values.push(formatScientific(value, precision));
      changed = true;
    } else {
      out += text.slice(i, j + 1);
      if (value !== undefined) values.push(value);
    }
    i = j + 1;
  }
  // Arguments beyond the clauses stay, for `format` to refuse.
  for (let k = argument; k < args.size; k++) {
    const value = args.get(k);
    if (value !== undefined) values.push(value);
  }
  return changed ? { text: out, args: celList(values) } : { text, args };
}
