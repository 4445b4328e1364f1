/**
 * CEL's conversions between strings and times as cel-go makes them, with Go's `time` package:
 * `timestamp(s)` is `time.Parse(time.RFC3339, s)` (a day the month does not have, an hour past
 * 23 or a second past 59 is an error, where `@bufbuild/cel`'s JavaScript dates roll over into the
 * next month); `duration("")` is an error, as `time.ParseDuration("")` is, and `1μs` is a
 * microsecond with either mu; a string neither takes is cel-go's `type conversion error from
 * 'string' to 'google.protobuf.Timestamp'` (or `Duration`), whatever Go's parser said; `string(t)` is
 * `t.Format(time.RFC3339Nano)` (`.5Z`, not `.500Z`) and `string(d)` the seconds as Go's
 * `FormatFloat(d.Seconds(), 'f', -1, 64)` plus `s` (`1.5s`, not `1.500s`). The rest of each
 * conversion is `@bufbuild/cel`'s own.
 */

import { celEnv, celFunc, CelScalar, isCelError, type CelFunc, type CelValue } from '@bufbuild/cel';
import { rfc3339Error } from '../go-rfc3339.js';
import { conversionError } from './evaluation-error.js';

const { STRING } = CelScalar;

/** `@bufbuild/cel`'s standard overload with this id. */
function standard(id: string): CelFunc {
  const func = [...celEnv().funcs].find((candidate) => candidate.id === id);
  if (func === undefined) throw new Error(`@bufbuild/cel has no ${id}`);
  return func;
}

/** Calls a standard overload, throwing its error as the function's error. */
function callStandard(func: CelFunc, args: CelValue[]): CelValue {
  const result = func.call(0, undefined, args);
  if (result === undefined) throw new Error(`found no matching overload for '${func.name}'`);
  if (isCelError(result)) throw result;
  return result;
}

const timestampOfString = standard('timestamp(string)');
const durationOfString = standard('duration(string)');

interface TimeMessage {
  readonly seconds: bigint;
  readonly nanos: number;
}

/** The message of a CEL timestamp or duration value. */
function messageOf(value: unknown): TimeMessage {
  return (value as { message: TimeMessage }).message;
}

/** `t.Format(time.RFC3339Nano)` of a UTC timestamp: the fraction without trailing zeros. */
export function formatRfc3339Nano({ seconds, nanos }: TimeMessage): string {
  const date = new Date(Number(seconds) * 1000);
  const whole = date.toISOString().replace(/\.\d{3}Z$/, '');
  const fraction = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
  return `${whole}${fraction}Z`;
}

/** Go's `FormatFloat(d.Seconds(), 'f', -1, 64)` and `s`: the shortest decimal, no exponent. */
export function formatGoDuration({ seconds, nanos }: TimeMessage): string {
  const value = Number(seconds) + nanos / 1e9;
  return `${plainDecimal(value)}s`;
}

/** The shortest decimal that reads back as `value`, written without an exponent. */
function plainDecimal(value: number): string {
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (exponent === null) return text;
  const [, sign = '', head = '', tail = '', power = '0'] = exponent;
  const digits = `${head}${tail}`;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const timestampToString = standard('string(google.protobuf.Timestamp)');
const durationToString = standard('string(google.protobuf.Duration)');

/** The conversions replaced (`cel-environment.ts` adds them). */
export const goTimeConversionFunctions: readonly CelFunc[] = [
  celFunc('timestamp', [STRING], timestampOfString.result, (text) => {
    if (rfc3339Error(text) !== undefined) conversionError('string', 'google.protobuf.Timestamp');
    return callStandard(timestampOfString, [text]);
  }),
  celFunc('duration', [STRING], durationOfString.result, (text) => {
    if (text === '') conversionError('string', 'google.protobuf.Duration');
    try {
      // Go takes the micro sign and the Greek letter mu alike.
      return callStandard(durationOfString, [text.replaceAll('\u03bc', '\u00b5')]);
    } catch {
      return conversionError('string', 'google.protobuf.Duration');
    }
  }),
  celFunc('string', timestampToString.arguments, STRING, (time) =>
    formatRfc3339Nano(messageOf(time)),
  ),
  celFunc('string', durationToString.arguments, STRING, (duration) =>
    formatGoDuration(messageOf(duration)),
  ),
];
