import { formatPointer, type Pointer } from '../../engine/resource/pointer.js';
import type { LogLevel, LogRecord } from '../../engine/runtime/logger.js';
import type { UserCodeMonitor, UserCodeSite } from '../../app/user-code-site.js';

/** What the project's code prints, captured: {@link ProjectOutput.flush} ends a partial line. */
export interface ProjectOutput {
  /** Logs what was written without a line end yet (once a turn of the event loop). */
  flush(): void;
}

/**
 * Turns what the project's code prints in this thread (`console.log`, `console.error(err)`,
 * `process.stdout.write`) into log records, so that `cosi run`'s log has a time and a level on
 * every line and stays one JSON object per line: each print is one record (a multi-line text,
 * a stack trace, kept whole in it), `info` for stdout, `warn` for `console.warn`, `error` for
 * `console.error` and the rest of stderr, with the controller and the resource the project's
 * code was running for when it printed, when cosi knows it (`site`), and `output` naming the
 * stream. A write without a line end is joined to the next of its stream and level, or logged
 * at {@link ProjectOutput.flush}.
 */
export function captureProjectOutput(
  onRecord: (record: LogRecord) => void,
  site: () => UserCodeSite | undefined,
  /** Told at each write: {@link ProjectOutput.flush} is to be called soon. */
  soon: () => void,
): ProjectOutput {
  /** The level of stderr writes now: `console.warn`'s while it runs. */
  let stderrLevel: LogLevel = 'error';
  const streams = [
    { stream: process.stdout, name: 'stdout', level: (): LogLevel => 'info' },
    { stream: process.stderr, name: 'stderr', level: () => stderrLevel },
  ].map((entry) => ({ ...entry, pending: '', pendingLevel: 'info' as LogLevel }));
  const flushEntry = (entry: (typeof streams)[number]): void => {
    const text = entry.pending;
    entry.pending = '';
    emit(entry, text);
  };
  const emit = (entry: (typeof streams)[number], text: string): void => {
    const at = site();
    const fields: Record<string, unknown> = {};
    if (at?.kind === 'reconcile') {
      fields['controller'] = at.controller;
      if (at.pointer !== undefined) fields['resource'] = formatPointer(at.pointer);
    }
    fields['output'] = entry.name;
    onRecord({ level: entry.pendingLevel, message: text, time: Date.now(), fields });
  };
  for (const entry of streams) {
    const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
      const text =
        typeof chunk === 'string'
          ? chunk
          : Buffer.from(chunk as Uint8Array).toString(
              typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
            );
      // What another stream printed before, without a line end, is logged first: in order.
      for (const other of streams) {
        if (other !== entry && other.pending !== '') flushEntry(other);
      }
      if (entry.pending === '') entry.pendingLevel = entry.level();
      entry.pending += text;
      if (entry.pending.endsWith('\n')) {
        const whole = entry.pending.slice(0, -1);
        entry.pending = '';
        emit(entry, whole);
      } else {
        soon();
      }
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    };
    entry.stream.write = write;
  }
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    // What stderr had without a line end was written at another level: a record of its own.
    const stderr = streams[1];
    if (stderr !== undefined && stderr.pending !== '') flushEntry(stderr);
    stderrLevel = 'warn';
    try {
      warn(...args);
    } finally {
      stderrLevel = 'error';
    }
  };
  return {
    flush: () => {
      for (const entry of streams) if (entry.pending !== '') flushEntry(entry);
    },
  };
}

/**
 * `monitor`, which also keeps the site last entered for {@link captureProjectOutput}: what the
 * project's code prints is placed there. A reconcile's site is kept as its parts: it is told
 * before every reconcile, and an object each time would cost more than the heartbeat's write.
 */
export function trackingSite<M extends UserCodeMonitor>(
  monitor: M,
): { readonly monitor: M; readonly site: () => UserCodeSite | undefined } {
  let other: UserCodeSite | undefined;
  let controller: string | undefined;
  let pointer: Pointer | undefined;
  const tracked: M = {
    ...monitor,
    enter: (site: UserCodeSite) => {
      controller = undefined;
      other = site;
      monitor.enter(site);
    },
    leave: () => {
      controller = undefined;
      other = undefined;
      monitor.leave();
    },
    reconcile: (name, on) => {
      controller = name;
      pointer = on;
      monitor.reconcile(name, on);
    },
  };
  const site = (): UserCodeSite | undefined =>
    controller === undefined
      ? other
      : { kind: 'reconcile', controller, ...(pointer === undefined ? {} : { pointer }) };
  return { monitor: tracked, site };
}
