import * as path from 'node:path';
import { removeStaleTemporaries, writeFileAtomically } from '../app/atomic-write.js';
import { toWriteError } from './write-error.js';

/**
 * Writes a file cosi produces (a golden, a trace) atomically; a failure is a one-line usage error
 * naming `display`, the path as the user gave it.
 */
export async function writeOutputFile(file: string, data: string, display: string): Promise<void> {
  try {
    await removeStaleTemporaries(path.dirname(file), path.basename(file));
    await writeFileAtomically(file, data);
  } catch (error) {
    throw toWriteError(error, display);
  }
}
