/**
 * CEL values back to JSON, for what kro's expressions render and `json.marshal` writes, as kro
 * converts them (`GoNativeType`, `pkg/cel/conversion/conversions.go`): ints as numbers, lists as
 * arrays, maps as objects (string keys only), a duration as Go writes one (`1h30m0s`, its
 * `metav1.Duration`), a timestamp as RFC 3339 in UTC to the second (its `metav1.Time`; the zero
 * time is null), an optional as its value (none: null). What a template or a status takes is
 * also JSON-safe (`EnsureJSONSafe`): bytes are refused there, while `json.marshal` writes them
 * in base64 (Go's `encoding/json`).
 */

import { isCelList, isCelMap, isCelUint, type CelValue } from '@bufbuild/cel';
import { OMIT } from '../../controllers/template-rendering.js';
import { libraryCondition } from '../../controllers/custom-conditions.js';
import { defineOwn } from '../../engine/resource/plain-data.js';
import { timeOf } from '../cel/formatted-string.js';
import { Optional } from '../cel/kubernetes-library/optional.js';
import { OmitValue } from './omit-value.js';
import { isLibraryCondition } from './library-conditions.js';

/** A value kro cannot convert: the message says why. */
export class UnconvertibleValue extends Error {}

/**
 * A CEL value as JSON, as `json.marshal` writes it: `omit()` as the renderer's {@link OMIT},
 * wherever it is. Throws {@link UnconvertibleValue} for a map key that is not a string.
 */
export function fromCelValue(value: unknown): unknown {
  return convert(value, false);
}

/**
 * A CEL value as a template field or a status field takes it: {@link fromCelValue}, refusing
 * bytes (kro's `EnsureJSONSafe`). Throws {@link UnconvertibleValue}.
 */
export function renderedValue(value: unknown): unknown {
  return convert(value, true);
}

function convert(value: unknown, jsonSafe: boolean): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof OmitValue) return OMIT;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (isCelUint(value)) return Number(value.value);
  if (value instanceof Optional) {
    return value.value === undefined ? null : convert(value.value, jsonSafe);
  }
  if (isCelList(value)) return [...value].map((item) => convert(item, jsonSafe));
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value.entries()) {
      if (typeof key !== 'string') {
        const type =
          typeof key === 'bigint' ? 'int64' : typeof key === 'boolean' ? 'bool' : 'uint64';
        throw new UnconvertibleValue(`map key must be string, got ${type}`);
      }
      defineOwn(out, key, convert(item, jsonSafe));
    }
    return isLibraryCondition(value) ? libraryCondition(out) : out;
  }
  if (value instanceof Uint8Array) {
    if (jsonSafe) {
      throw new UnconvertibleValue(
        'bytes value cannot be used directly in a resource template or status field; encode it explicitly, e.g. base64.encode(...)',
      );
    }
    return Buffer.from(value).toString('base64');
  }
  const time = timeOf(value as CelValue);
  if (time?.type === 'duration') return goDuration(time.nanos);
  if (time?.type === 'timestamp') return rfc3339Seconds(time.nanos);
  return null;
}

const NANOS_PER_SECOND = 1_000_000_000n;
/** 0001-01-01T00:00:00Z, Go's zero time, in seconds since the epoch. */
const ZERO_TIME_SECONDS = -62_135_596_800n;

/** A timestamp as `metav1.Time` writes it: RFC 3339 in UTC, whole seconds; the zero time null. */
function rfc3339Seconds(nanos: bigint): string | null {
  let seconds = nanos / NANOS_PER_SECOND;
  if (nanos < 0n && seconds * NANOS_PER_SECOND !== nanos) seconds -= 1n;
  if (seconds === ZERO_TIME_SECONDS && nanos === seconds * NANOS_PER_SECOND) return null;
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** A duration as Go's `time.Duration.String` writes it: `1h30m0s`, `1.5s`, `250ms`, `0s`. */
export function goDuration(nanos: bigint): string {
  const sign = nanos < 0n ? '-' : '';
  const u = nanos < 0n ? -nanos : nanos;
  if (u === 0n) return '0s';
  if (u < 1_000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${fraction(u, 3)}µs`;
  if (u < NANOS_PER_SECOND) return `${sign}${fraction(u, 6)}ms`;
  const seconds = u / NANOS_PER_SECOND;
  const text = `${fraction(u % (NANOS_PER_SECOND * 60n), 9)}s`;
  const minutes = seconds / 60n;
  if (minutes === 0n) return `${sign}${text}`;
  const hours = minutes / 60n;
  const withMinutes = `${minutes % 60n}m${text}`;
  return hours === 0n ? `${sign}${withMinutes}` : `${sign}${hours}h${withMinutes}`;
}

/** `value / 10^digits` in decimal, without trailing zeros in its fraction. */
function fraction(value: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const whole = value / scale;
  const rest = (value % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return rest === '' ? `${whole}` : `${whole}.${rest}`;
}
