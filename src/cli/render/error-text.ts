import type { ErrorRecord } from '../../engine/runtime/error-record.js';
import { formatLocation } from './location.js';

/** A controller's error as one text: `file:line:col: message` when its place is known. */
export function errorText(error: ErrorRecord): string {
  return error.location ? `${formatLocation(error.location)}: ${error.message}` : error.message;
}
