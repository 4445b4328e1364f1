/** The file-system calls of the manifest reader, as a seam: tests give synthetic file systems. */

import { constants } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { decodeManifest } from './decode-manifest.js';
import { isTooLarge, ManifestTooLargeError } from './manifest-size.js';
import type { AppliedBy } from './applied-by.js';

/** Files read at once: enough to keep the disk busy, few enough to stay clear of EMFILE. */
export const READ_CONCURRENCY = 32;

/** A directory entry, as `readdir` with `withFileTypes` gives it. */
export interface ManifestDirEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** What walking a manifest tree needs to know of a path. */
export interface ManifestStats {
  isFile(): boolean;
  isDirectory(): boolean;
  /** A pipe (`-f <(kustomize build)`, `-f /dev/stdin` fed by one), read once to its end. */
  isFIFO?(): boolean;
  /** A terminal or `/dev/stdin` on one, read to its end as a pipe is. */
  isCharacterDevice?(): boolean;
}

/**
 * What walking a manifest tree and reading its files needs from a file system. Errors carry
 * Node's `code` (`ENOENT`...).
 */
export interface ManifestFileSystem {
  /** Follows symlinks. */
  stat(path: string): Promise<ManifestStats>;
  readdir(path: string): Promise<readonly ManifestDirEntry[]>;
  realpath(path: string): Promise<string>;
  /**
   * The file's content, decoded as UTF-8. Throw an `EncodingError` (see `decode-manifest.ts`)
   * for content that is not UTF-8: it becomes an `invalid-encoding` finding at its place.
   * `options.pipe`: a pipe or a device given by name, read to its end; any other path is read
   * only while it is a regular file.
   */
  readFile(path: string, options?: ManifestReadOptions): Promise<string>;
}

/** How {@link ManifestFileSystem.readFile} reads a path. */
export interface ManifestReadOptions {
  /** A pipe or a device given by name (`-f <(kustomize build)`): read as a stream to its end. */
  readonly pipe?: boolean;
}

/** A manifest file found below the given paths. */
export interface FoundFile {
  /** As shown in findings. */
  readonly display: string;
  readonly absolute: string;
  /**
   * A pipe or a device given by name, read as a stream; any other file is read only while it is
   * a regular file.
   */
  readonly pipe?: boolean;
  /** The end-to-end test that applies it, and the namespace it applies it in. */
  readonly appliedBy?: AppliedBy;
}

/** The real file system, through `node:fs/promises`. */
export const nodeFileSystem: ManifestFileSystem = {
  stat: (p) => nodeFs.stat(p),
  readdir: (p) => nodeFs.readdir(p, { withFileTypes: true }),
  realpath: (p) => nodeFs.realpath(p),
  readFile: async (p, options) => {
    if (options?.pipe === true) {
      const stats = await nodeFs.stat(p);
      if (isTooLarge(stats.size)) throw new ManifestTooLargeError();
      return decodeManifest(stats.isFile() ? await nodeFs.readFile(p) : await readStream(p));
    }
    return decodeManifest(await readRegularFile(p));
  },
};

/**
 * The bytes of a file the walk found regular, opened without blocking and looked at before it
 * is read: one replaced by a named pipe since (a checkout changing under the check) was read as
 * a pipe, and waited for ever for a writer.
 */
async function readRegularFile(p: string): Promise<Uint8Array> {
  const handle = await nodeFs.open(p, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error('not a regular file');
    if (isTooLarge(stats.size)) throw new ManifestTooLargeError();
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The whole of a pipe or device, whose size is known only once read, within the size bound. */
async function readStream(p: string): Promise<Uint8Array> {
  const handle = await nodeFs.open(p, 'r');
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(STREAM_CHUNK), 0, STREAM_CHUNK);
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      total += bytesRead;
      if (isTooLarge(total)) throw new ManifestTooLargeError();
      chunks.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

const STREAM_CHUNK = 64 * 1024;

/** Node's error code (`ENOENT`, `ELOOP`...) of a file-system error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' ? code : undefined;
}
