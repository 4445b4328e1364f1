import type { LogRecord } from '../../engine/runtime/logger.js';
import { escapeControl } from './escape-control.js';
import { formatTime } from '../../app/output-document.js';

/** One log line: `time level controller message key=value...`. */
export function formatLog(record: LogRecord): string {
  const { controller, ...rest } = record.fields;
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const who = typeof controller === 'string' ? ` ${controller}` : '';
  const line = `${formatTime(record.time)} ${record.level.toUpperCase()}${who} ${record.message}${fields ? ` ${fields}` : ''}`;
  return `${escapeControl(line)}\n`;
}
