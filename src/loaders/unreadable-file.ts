/** The `unreadable-file` finding, which the walk and the reads of a manifest tree both make. */
import { createFinding, type Finding } from './finding.js';

/**
 * The `unreadable-file` finding, about a whole file: made here only, for the walk (a manifest
 * that is a FIFO or a dangling link) as for the reads.
 */
export function unreadableFile(file: string, message: string): Finding {
  return createFinding({ code: 'unreadable-file', message, file, line: 0, col: 0, pointer: '' });
}

/** `cannot read <file>: <the error's message>`, as an `unreadable-file` finding. */
export function cannotRead(file: string, error: unknown): Finding {
  const reason = error instanceof Error ? error.message : String(error);
  return unreadableFile(file, `cannot read ${file}: ${reason}`);
}
