import { NotRegularFileError } from '../app/atomic-write.js';
import { CliError, EXIT } from './exit-codes.js';

/** What the file system's usual refusals mean, in the words of a one-line error. */
const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EEXIST: 'a file is in the way',
  ENOENT: 'no such directory',
  ENOTDIR: 'a file is in the way of a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'it is a directory',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'input/output error',
};

/**
 * Turns the failure to write a file cosi writes (a golden, a trace) into a usage error that names
 * the file as the user gave it: `cannot write golden/Pods.yaml: permission denied (EACCES)`.
 * Anything that is not a file-system error is returned as it is, for the top-level catch.
 */
export function toWriteError(error: unknown, display: string): unknown {
  const code = codeOf(error);
  if (code === undefined) return error;
  if (error instanceof NotRegularFileError) {
    return new CliError(`cannot write ${display}: it is ${error.kind}, not a regular file`);
  }
  const reason = REASONS[code] ?? (error instanceof Error ? firstLine(error.message) : code);
  return new CliError(`cannot write ${display}: ${reason} (${code})`, EXIT.usage);
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' && /^E[A-Z]+$/.test(error.code) ? error.code : undefined;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
