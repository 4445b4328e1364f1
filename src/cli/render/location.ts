import type { CodeLocation } from '../../engine/runtime/error-record.js';

/** `file:line:col`, as findings and editors name a place. */
export function formatLocation(location: CodeLocation): string {
  return `${location.file}:${location.line}:${location.col}`;
}
