/** The severity of a {@link LogRecord}. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One structured log record. */
export interface LogRecord {
  readonly level: LogLevel;
  readonly message: string;
  /** Simulated or real time, ms. */
  readonly time: number;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Where a {@link Logger} sends its records. */
export type LogSink = (record: LogRecord) => void;

/** A structured logger; `child` adds fields (the runtime adds `controller`). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** A logger writing to `sink`; without one it is silent. */
export function createLogger(
  sink?: LogSink,
  now: () => number = Date.now,
  fields: Record<string, unknown> = {},
): Logger {
  const emit =
    (level: LogLevel) =>
    (message: string, extra?: Record<string, unknown>): void => {
      if (sink)
        sink({ level, message, time: now(), fields: extra ? { ...fields, ...extra } : fields });
    };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (more) => createLogger(sink, now, { ...fields, ...more }),
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = createLogger();
