/**
 * Strings whose schema `format` gives them a CEL type, as the API server's `UnstructuredToVal`
 * types them: `duration` is a `google.protobuf.Duration` (Go's `time.ParseDuration` syntax,
 * `1h30m`, `300ms`, or kube-openapi's longer forms, `3 days`, `1w`), `date` a timestamp at
 * midnight UTC, `date-time` a timestamp (RFC 3339, or a local time read as UTC), `byte` the
 * bytes its base64 text decodes to (parsed by `string-formats.ts`). A string that does not parse
 * is an error value; the schema refuses it before rules run, as the API server's does.
 */

import { celError, type CelError, type CelValue } from '@bufbuild/cel';
import { create } from '@bufbuild/protobuf';
import { isReflectMessage, reflect } from '@bufbuild/protobuf/reflect';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { decodeBase64, parseDate, parseDateTime, parseDuration } from '../string-formats.js';

export { isTypedFormat } from '../string-formats.js';

/** The CEL value of `text` under a {@link isTypedFormat} `format`: the value, or an error. */
export function toFormattedValue(text: string, format: string): CelValue | CelError {
  switch (format) {
    case 'duration': {
      const nanos = parseDuration(text);
      if (nanos === undefined) return celError(`Invalid duration ${text}`);
      return durationValue(nanos);
    }
    case 'date': {
      const seconds = parseDate(text);
      if (seconds === undefined) return celError(`Invalid date formatted string ${text}`);
      return timestampValue(seconds, 0);
    }
    case 'date-time': {
      const time = parseDateTime(text);
      if (time === undefined) return celError(`Invalid date-time formatted string ${text}`);
      return timestampValue(time.seconds, time.nanos);
    }
    case 'byte': {
      const bytes = decodeBase64(text);
      if (bytes === undefined) return celError(`Invalid byte formatted string ${text}`);
      return bytes;
    }
    default:
      return text;
  }
}

const NANOS_PER_SECOND = 1_000_000_000n;

/** A CEL `google.protobuf.Duration` of `nanos` nanoseconds. */
export function durationValue(nanos: bigint): CelValue {
  const seconds = nanos / NANOS_PER_SECOND;
  const message = create(DurationSchema, {
    seconds,
    nanos: Number(nanos - seconds * NANOS_PER_SECOND),
  });
  return reflect(DurationSchema, message);
}

/**
 * A CEL duration or timestamp as nanoseconds (since the epoch for a timestamp), to order and
 * add them; `undefined` for other values.
 */
export function timeOf(
  value: CelValue,
): { readonly type: 'duration' | 'timestamp'; readonly nanos: bigint } | undefined {
  const type = isReflectMessage(value, DurationSchema)
    ? 'duration'
    : isReflectMessage(value, TimestampSchema)
      ? 'timestamp'
      : undefined;
  if (type === undefined) return undefined;
  const message = (value as unknown as { message: { seconds: bigint; nanos: number } }).message;
  return { type, nanos: message.seconds * NANOS_PER_SECOND + BigInt(message.nanos) };
}

function timestampValue(seconds: bigint, nanos: number): CelValue {
  const message = create(TimestampSchema, { seconds, nanos });
  return reflect(TimestampSchema, message);
}
