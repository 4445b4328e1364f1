/**
 * The string formats whose values the API server parses, as kube-openapi's `strfmt` parses them:
 * `duration`, `date`, `date-time` and `byte`. A value that does not parse is refused by the schema
 * (`checked-formats.ts`, with the formats the API server only checks: `uri`, `ipv4`, `cidr`,
 * ...); one that parses is a duration, timestamp or bytes in CEL rules
 * (`cel/formatted-string.ts`).
 */

/** The formats that are parsed. */
const PARSED_FORMATS = new Set(['duration', 'date', 'date-time', 'byte']);

/** Whether strings of `format` are parsed (and so checked, and typed in CEL). */
export function isTypedFormat(format: unknown): format is string {
  return typeof format === 'string' && PARSED_FORMATS.has(format);
}

const NANOS_PER_SECOND = 1_000_000_000n;
const MAX_DURATION = 2n ** 63n - 1n;

const GO_UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: NANOS_PER_SECOND,
  m: 60n * NANOS_PER_SECOND,
  h: 3600n * NANOS_PER_SECOND,
};

const GO_TERM = /([0-9]*)(?:\.([0-9]*))?([^0-9.]+)/y;

/** Nanoseconds of a duration as kube-openapi's `strfmt.ParseDuration` reads it. */
export function parseDuration(text: string): bigint | undefined {
  return parseGoDuration(text) ?? parseLongDuration(text);
}

/** Go's `time.ParseDuration`: `[-+]` then terms such as `1.5h`, `300ms`; `0` alone. */
export function parseGoDuration(text: string): bigint | undefined {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  GO_TERM.lastIndex = 0;
  while (GO_TERM.lastIndex < rest.length) {
    const start = GO_TERM.lastIndex;
    const match = GO_TERM.exec(rest);
    if (match === null || match.index !== start) return undefined;
    const [, whole = '', fraction, unitText = ''] = match;
    if (whole === '' && (fraction === undefined || fraction === '')) return undefined;
    const unit = GO_UNITS[unitText];
    if (unit === undefined) return undefined;
    let term = BigInt(whole === '' ? '0' : whole) * unit;
    if (fraction !== undefined && fraction !== '') {
      term += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    }
    total += term;
    if (total > MAX_DURATION + (negative ? 1n : 0n)) return undefined;
  }
  return negative ? -total : total;
}

/**
 * Go's `time.Duration.String` of nanoseconds: `2160h0m0s`, `1m30s`, `1.5s`, `300ms`, `0s`; the
 * leading zero units left out.
 */
export function goDurationString(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  if (nanos < 0n) return `-${goDurationString(-nanos)}`;
  const fractionOf = (value: bigint, unit: bigint): string => {
    const whole = value / unit;
    const rest = value % unit;
    if (rest === 0n) return `${whole}`;
    const digits = `${rest}`.padStart(`${unit}`.length - 1, '0').replace(/0+$/, '');
    return `${whole}.${digits}`;
  };
  if (nanos < NANOS_PER_SECOND) {
    if (nanos < 1_000n) return `${nanos}ns`;
    if (nanos < 1_000_000n) return `${fractionOf(nanos, 1_000n)}µs`;
    return `${fractionOf(nanos, 1_000_000n)}ms`;
  }
  const hours = nanos / (3600n * NANOS_PER_SECOND);
  const minutes = (nanos / (60n * NANOS_PER_SECOND)) % 60n;
  const seconds = fractionOf(nanos % (60n * NANOS_PER_SECOND), NANOS_PER_SECOND);
  if (hours > 0n) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/**
 * kube-openapi's fallback: `<int> <unit>` terms, units by name or prefix (`3 days`, `1w`). A term
 * starts where a run of digits does (a match from within the run would be the same, or none): a
 * long run with no unit after it is read once, not again from each of its digits (quadratic).
 */
const LONG_TERM = /(?<!\d)(\d+)\s*([A-Za-zµ]+)/g;
const LONG_UNITS: readonly (readonly [bigint, readonly string[]])[] = [
  [1n, ['ns', 'nano']],
  [1_000n, ['us', 'µs', 'micro']],
  [1_000_000n, ['ms', 'milli']],
  [NANOS_PER_SECOND, ['s', 'sec']],
  [60n * NANOS_PER_SECOND, ['m', 'min']],
  [3600n * NANOS_PER_SECOND, ['h', 'hr', 'hour']],
  [86_400n * NANOS_PER_SECOND, ['d', 'day']],
  [604_800n * NANOS_PER_SECOND, ['w', 'wk', 'week']],
];

function parseLongDuration(text: string): bigint | undefined {
  let total = 0n;
  let matched = false;
  for (const [, digits = '', unitText = ''] of text.matchAll(LONG_TERM)) {
    // Go's strconv.Atoi: an int64.
    if (BigInt(digits) > MAX_DURATION) return undefined;
    const unit = unitText.toLowerCase();
    for (const [multiplier, variants] of LONG_UNITS) {
      for (const [i, variant] of variants.entries()) {
        if ((i === variants.length - 1 && unit.startsWith(variant)) || unit === variant) {
          matched = true;
          total += BigInt(digits) * multiplier;
        }
      }
    }
  }
  // Go's time.Duration wraps; cosi refuses what would overflow it.
  return matched && total <= MAX_DURATION ? total : undefined;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Seconds since the epoch of midnight UTC of a `2006-01-02` date, as Go's `time.Parse`. */
export function parseDate(text: string): bigint | undefined {
  const match = DATE.exec(text);
  if (match === null) return undefined;
  return epochSeconds(Number(match[1]), Number(match[2]), Number(match[3]));
}

function epochSeconds(year: number, month: number, day: number): bigint | undefined {
  if (month < 1 || month > 12 || day < 1) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (day > days) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return BigInt(date.getTime() / 1000);
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * A date-time as kube-openapi's `strfmt.ParseDateTime` reads it: RFC 3339 (fractional seconds
 * optional), or without an offset as UTC; the empty string is the epoch.
 */
export function parseDateTime(text: string): { seconds: bigint; nanos: number } | undefined {
  if (text === '') return { seconds: 0n, nanos: 0 };
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', offset = 'Z'] = match;
  const midnight = epochSeconds(Number(year), Number(month), Number(day));
  if (midnight === undefined || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) {
    return undefined;
  }
  let offsetSeconds = 0;
  if (offset !== 'Z') {
    const hours = Number(offset.slice(1, 3));
    const minutes = Number(offset.slice(4, 6));
    if (hours > 23 || minutes > 59) return undefined;
    offsetSeconds = (offset.startsWith('-') ? -1 : 1) * (hours * 3600 + minutes * 60);
  }
  const seconds =
    midnight + BigInt(Number(hour) * 3600 + Number(minute) * 60 + Number(second) - offsetSeconds);
  return { seconds, nanos: Number(fraction.padEnd(9, '0')) };
}

/** kube-openapi's `DateTimePattern`, matched against the part after the date. */
const DATE_TIME_CLOCK = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;

/**
 * Whether a string is a `date-time` as the API server validates one (kube-openapi's
 * `strfmt.IsDateTime`, which differs from how it parses one, {@link parseDateTime}): lower-cased
 * and split at each `t`, the first part a date and the second a clock with an offset (`z` or
 * `+hh:mm`), hours to 23, minutes and seconds to 59; any character before the fraction. So `""`
 * and `2024-01-02T03:04:05` (no offset) are not date-times, `2024-01-02t03:04:05z` is.
 */
export function isDateTime(text: string): boolean {
  const parts = text.toLowerCase().split('t');
  if (parts.length < 2 || parseDate(parts[0] as string) === undefined) return false;
  const clock = DATE_TIME_CLOCK.exec(parts[1] as string);
  if (clock === null) return false;
  return (
    (clock[1] as string) <= '23' && (clock[2] as string) <= '59' && (clock[3] as string) <= '59'
  );
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Go's `base64.StdEncoding` decoding (padded; line breaks ignored), as `strfmt.Base64`. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/[\r\n]/g, '');
  if (!BASE64.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}
