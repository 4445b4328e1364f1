import { access, constants, stat } from 'node:fs/promises';
import * as path from 'node:path';
import {
  kindOf,
  NotRegularFileError,
  removeStaleTemporaries,
  writeFileAtomically,
} from '../app/atomic-write.js';
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

/**
 * Refuses, before a run, a file cosi would write at its end (`--trace`, `--report`) that cannot
 * be written: a directory in the way, a directory that is not there, one it may not write in. The
 * error is the one the write would end with, said before the project runs.
 */
export async function checkOutputPath(file: string, cwd: string): Promise<void> {
  const absolute = path.resolve(cwd, file);
  try {
    const found = await stat(absolute).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
      throw error;
    });
    if (found !== undefined && !found.isFile()) {
      throw new NotRegularFileError(absolute, kindOf(found));
    }
    const directory = path.dirname(absolute);
    if (!(await stat(directory)).isDirectory()) {
      throw Object.assign(new Error(`${directory} is not a directory`), { code: 'ENOTDIR' });
    }
    await access(directory, constants.W_OK);
  } catch (error) {
    throw toWriteError(error, file);
  }
}
