/**
 * How cosi writes a file (a golden, a trace): to a temporary file beside it, flushed to disk, then
 * renamed over it. A reader, or a run killed halfway, sees the whole old file or the whole new
 * one, never a part; the temporary file such a run leaves is removed by the next write there
 * ({@link removeStaleTemporaries}). Only a regular file (or nothing) is ever replaced: a FIFO, a
 * device or a directory where the file goes is refused before anything is opened, so a write
 * never blocks.
 */

import { lstat, open, readdir, realpath, rename, stat, unlink } from 'node:fs/promises';
import * as path from 'node:path';

/** A write refused because what is at the path is not a regular file. */
export class NotRegularFileError extends Error {
  /** Node's code for "wrong file type", so the error maps as the file system's errors do. */
  readonly code = 'EFTYPE';
  constructor(
    readonly file: string,
    readonly kind: string,
  ) {
    super(`${file} is ${kind}, not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

/** Makes each temporary name of this process distinct. */
let counter = 0;

/** The name of the temporary file for `file`: hidden, in its directory, never a `*.yaml`. */
export function temporaryName(file: string): string {
  counter += 1;
  return path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${counter}.cosi-tmp`,
  );
}

/** A temporary name of {@link temporaryName}: the file's name and the writing process's id. */
const TEMPORARY = /^\.(.+)\.(\d+)\.\d+\.cosi-tmp$/;

/**
 * Removes the temporary files a cosi process that is gone left in `dir` (killed, or stopped by
 * Ctrl-C, while it wrote), of `file` only when given: the names are cosi's own, and a process
 * still running keeps its own. Best effort: a directory that cannot be read is left as it is.
 */
export async function removeStaleTemporaries(dir: string, file?: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = TEMPORARY.exec(name);
    if (!match || (file !== undefined && match[1] !== file) || isRunning(Number(match[2]))) {
      continue;
    }
    const info = await lstat(path.join(dir, name)).catch(() => undefined);
    if (info?.isFile()) await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user's has that id.
    return (error as { code?: unknown }).code !== 'ESRCH';
  }
}

/**
 * Writes `data` to `file` atomically: a temporary file in the same directory, `fsync`, `rename`.
 * A symlink at `file` is written through (its target is replaced). Throws the file system's error
 * (`EACCES`, `ENOENT`, `ENOSPC`...) or {@link NotRegularFileError}; the temporary file is removed
 * on failure.
 */
export async function writeFileAtomically(file: string, data: string): Promise<void> {
  const target = await regularTarget(file);
  const temporary = temporaryName(target.path);
  let renamed = false;
  try {
    // `wx`: never an existing file (let alone a FIFO someone put at the temporary name).
    const handle = await open(temporary, 'wx', target.mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target.path);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temporary).catch(() => undefined);
  }
  await syncDirectory(path.dirname(target.path));
}

/**
 * Refuses, before anything is written, a path {@link writeFileAtomically} would refuse: a FIFO, a
 * device or a directory there ({@link NotRegularFileError}), or an error of the file system's
 * reading it. A caller that writes several files checks them all first, so that a refusal leaves
 * none of them written.
 */
export async function assertReplaceable(file: string): Promise<void> {
  await regularTarget(file);
}

/** The path to replace and the mode to give the new file, after refusing special files. */
async function regularTarget(file: string): Promise<{ path: string; mode: number }> {
  let link;
  try {
    link = await lstat(file);
  } catch (error) {
    if (isMissing(error)) return { path: file, mode: 0o666 };
    throw error;
  }
  const info = link.isSymbolicLink() ? await stat(file).catch(() => undefined) : link;
  // A dangling symlink is replaced by the file, as `writeFile` would create its target.
  if (!info) return { path: file, mode: 0o666 };
  if (!info.isFile()) throw new NotRegularFileError(file, kindOf(info));
  const real = link.isSymbolicLink() ? await realpath(file) : file;
  return { path: real, mode: info.mode & 0o777 };
}

/** What is at a path that is no regular file, in words: `a directory`, `a FIFO`. */
export function kindOf(info: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'a special file';
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

/** Makes the rename durable; a file system that cannot sync a directory is left as it is. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not every platform or file system syncs directories; the rename itself has happened.
  }
}
