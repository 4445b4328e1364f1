/**
 * A CronJob's `schedule` as the API server parses it: robfig/cron v3's `ParseStandard`, five
 * fields (minute, hour, day of month, month, day of week) or a descriptor (`@daily`,
 * `@every 1h30m`), with an optional `TZ=` / `CRON_TZ=` prefix. Each field is a comma-separated
 * list of `*`, `?`, a number or a name (`JAN`, `mon`), a range `a-b`, each with an optional
 * `/step`. The error is worded as the parser words it, which the API server prints after
 * `spec.schedule: Invalid value: "...": `.
 */

import { parseGoDuration } from '../string-formats.js';
import { timeZoneError } from './time-zone.js';

interface Bounds {
  readonly min: bigint;
  readonly max: bigint;
  readonly names?: ReadonlyMap<string, bigint>;
}

const MONTH_NAMES = new Map(
  ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map(
    (name, i) => [name, BigInt(i + 1)],
  ),
);
const DAY_NAMES = new Map(
  ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((name, i) => [name, BigInt(i)]),
);
/** Minute, hour, day of month, month, day of week. */
const FIELDS: readonly Bounds[] = [
  { min: 0n, max: 59n },
  { min: 0n, max: 23n },
  { min: 1n, max: 31n },
  { min: 1n, max: 12n, names: MONTH_NAMES },
  { min: 0n, max: 6n, names: DAY_NAMES },
];
const DESCRIPTORS = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
]);
const EVERY = '@every ';
/** Go's `strings.Fields`: runs of white space. */
const WHITE_SPACE = /\s+/u;

/** Why `ParseStandard` refuses `schedule`, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  if (schedule === '') return 'empty spec string';
  let spec = schedule;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    // The parser slices to the first space; without one it panics, which the API server
    // answers as an invalid schedule too.
    if (space < 0) return `provided bad location ${spec.slice(spec.indexOf('=') + 1)}`;
    const location = spec.slice(spec.indexOf('=') + 1, space);
    const bad = location === '' || location === 'UTC' ? undefined : timeZoneError(location);
    if (bad !== undefined) return `provided bad location ${location}: ${bad}`;
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) return descriptorError(spec);
  const fields = spec.split(WHITE_SPACE).filter((field) => field !== '');
  if (fields.length !== FIELDS.length) {
    return `expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(' ')}]`;
  }
  for (const [i, bounds] of FIELDS.entries()) {
    for (const range of (fields[i] ?? '').split(',')) {
      if (range === '') continue; // strings.FieldsFunc drops empty pieces
      const error = rangeError(range, bounds);
      if (error !== undefined) return error;
    }
  }
  return undefined;
}

function descriptorError(spec: string): string | undefined {
  if (DESCRIPTORS.has(spec)) return undefined;
  if (spec.startsWith(EVERY)) {
    const text = spec.slice(EVERY.length);
    return parseGoDuration(text) === undefined
      ? `failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(text)}`
      : undefined;
  }
  return `unrecognized descriptor: ${spec}`;
}

/** robfig/cron's `getRange`: `*`, `?`, `a`, `a-b`, each with an optional `/step`. */
function rangeError(expression: string, bounds: Bounds): string | undefined {
  const [range = '', stepText = ''] = expression.split('/');
  const slashes = expression.split('/').length - 1;
  const [low = '', high = ''] = range.split('-');
  const hyphens = range.split('-').length - 1;
  let start: bigint;
  let end: bigint;
  if (low === '*' || low === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    const first = intOrName(low, bounds.names);
    if (typeof first === 'string') return first;
    start = first;
    if (hyphens === 0) end = start;
    else if (hyphens === 1) {
      const last = intOrName(high, bounds.names);
      if (typeof last === 'string') return last;
      end = last;
    } else return `too many hyphens: ${expression}`;
  }
  let step = 1n;
  if (slashes === 1) {
    const parsed = nonNegativeInt(stepText);
    if (typeof parsed === 'string') return parsed;
    step = parsed;
    // "N/step" means "N-max/step".
    if (hyphens === 0) end = bounds.max;
  } else if (slashes > 1) return `too many slashes: ${expression}`;
  if (start < bounds.min) {
    return `beginning of range (${start}) below minimum (${bounds.min}): ${expression}`;
  }
  if (end > bounds.max) {
    return `end of range (${end}) above maximum (${bounds.max}): ${expression}`;
  }
  if (start > end) {
    return `beginning of range (${start}) beyond end of range (${end}): ${expression}`;
  }
  if (step === 0n) return `step of range should be a positive number: ${expression}`;
  return undefined;
}

function intOrName(text: string, names?: ReadonlyMap<string, bigint>): bigint | string {
  return names?.get(text.toLowerCase()) ?? nonNegativeInt(text);
}

/** Go's `strconv.Atoi` (an optional sign, decimal digits, an int64), then not negative. */
function nonNegativeInt(text: string): bigint | string {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    return `failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`;
  }
  const value = BigInt(text);
  if (value > 9_223_372_036_854_775_807n || value < -9_223_372_036_854_775_808n) {
    return `failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`;
  }
  return value < 0n ? `negative number (${value}) not allowed: ${text}` : value;
}
