import type { LogLevel, LogRecord } from '../../engine/runtime/logger.js';
import { escapeControl } from '../render/escape-control.js';

/** `--log-format`: lines for people, or one JSON object per line for log shippers. */
export type LogFormat = 'text' | 'json';

export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

/** Fields every line may carry; others are added after them. */
export interface RunLogFields {
  readonly controller?: string;
  /** A resource (`VMs.example.org/web-1`) or a place in a file (`vms.yaml:3:1`). */
  readonly resource?: string;
  /** A stable error code (`etcd-unreachable`, a finding's code). */
  readonly code?: string;
  readonly error?: string;
  readonly [key: string]: unknown;
}

/** What `cosi run` logs through: its own events and its controllers' records, one line each. */
export interface RunLog {
  log(level: LogLevel, message: string, fields?: RunLogFields): void;
  info(message: string, fields?: RunLogFields): void;
  warn(message: string, fields?: RunLogFields): void;
  error(message: string, fields?: RunLogFields): void;
  /** A controller's log record (its `time` is the runtime's clock: the real one in `run`). */
  record(record: LogRecord): void;
}

/** The fields shown first, in this order, on a text line. */
const LEADING = ['controller', 'resource', 'code', 'error'] as const;

/**
 * A log writing one line per record to `write`. Text: `2026-12-02T01:30:00.000Z INFO  msg
 * controller=X resource=Y key=value`, control characters escaped. JSON: `{"time", "level",
 * "msg", ...fields}`, a line each. Every line has a timestamp and a level.
 */
export function createRunLog(
  write: (text: string) => void,
  format: LogFormat = 'text',
  now: () => number = Date.now,
): RunLog {
  const emit = (
    level: LogLevel,
    said: unknown,
    fields: Readonly<Record<string, unknown>>,
    time: number,
  ): void => {
    // A controller in JavaScript may log an object (a cycle, a bigint) as its message: as text.
    const message = typeof said === 'string' ? said : textOf(said);
    write(
      format === 'json'
        ? jsonLine(level, message, fields, time)
        : textLine(level, message, fields, time),
    );
  };
  return {
    log: (level, message, fields = {}) => emit(level, message, fields, now()),
    info: (message, fields = {}) => emit('info', message, fields, now()),
    warn: (message, fields = {}) => emit('warn', message, fields, now()),
    error: (message, fields = {}) => emit('error', message, fields, now()),
    record: (record) => emit(record.level, record.message, record.fields, record.time),
  };
}

function textLine(
  level: LogLevel,
  message: string,
  fields: Readonly<Record<string, unknown>>,
  time: number,
): string {
  const parts = [new Date(time).toISOString(), level.toUpperCase().padEnd(5), message];
  const keys = [
    ...LEADING.filter((key) => fields[key] !== undefined),
    ...Object.keys(fields).filter(
      (key) => fields[key] !== undefined && !(LEADING as readonly string[]).includes(key),
    ),
  ];
  for (const key of keys) parts.push(`${formatKey(key)}=${formatValue(fields[key])}`);
  return `${escapeControl(parts.join(' '))}\n`;
}

/** Any value as one text: a string as is, anything else as {@link loggable} writes it in JSON. */
function textOf(value: unknown): string {
  const plain = loggable(value);
  return typeof plain === 'string' ? plain : JSON.stringify(plain);
}

/** A field's key as {@link formatValue} writes a value: `a b=c` would read as two fields. */
function formatKey(key: string): string {
  return /^[^\s"=]+$/.test(key) ? key : JSON.stringify(key);
}

/** A bare word as is; anything with a space, a quote or an `=` quoted, as logfmt does. */
function formatValue(value: unknown): string {
  const text = textOf(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/**
 * A field's value as JSON can write it, whatever a controller logged: an error is its message, a
 * date its ISO time, a bigint, a function or a symbol its text, a cycle `[Circular]`, a Map its
 * entries and a Set its values. `JSON.stringify` threw on a bigint or a cycle, which ended the
 * run (the worker's message could not be read), and wrote an error as `{}`.
 */
export function loggable(value: unknown, seen: Set<object> = new Set()): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'undefined':
    case 'bigint':
    case 'symbol':
    case 'function':
      return String(value);
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Error) return object.message;
  if (object instanceof Date)
    return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
  if (seen.has(object)) return '[Circular]';
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => loggable(item, seen));
    if (object instanceof Map) {
      return [...object.entries()].map(([key, item]) => [
        loggable(key, seen),
        loggable(item, seen),
      ]);
    }
    if (object instanceof Set) return [...object].map((item) => loggable(item, seen));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) {
      if (item !== undefined) copy[key] = loggable(item, seen);
    }
    return copy;
  } finally {
    seen.delete(object);
  }
}

function jsonLine(
  level: LogLevel,
  message: string,
  fields: Readonly<Record<string, unknown>>,
  time: number,
): string {
  const entry: Record<string, unknown> = {
    time: new Date(time).toISOString(),
    level,
    msg: message,
  };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // A field named as the line's own (`time`, `level`, `msg`) is kept beside it, as logrus
    // keeps a clashing field: `fields.msg`.
    let name = key;
    while (name in entry) name = `fields.${name}`;
    entry[name] = loggable(value);
  }
  // JSON.stringify escapes control characters: the line stays one line.
  return `${JSON.stringify(entry)}\n`;
}
