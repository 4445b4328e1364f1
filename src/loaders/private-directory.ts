import { mkdirSync, statSync } from 'node:fs';

/**
 * `directory`, made if missing and private to this user (mode 0700), or `undefined` when it is
 * not safe to use: one that others can write, or that another user owns, could hold files that
 * would be run as cosi's code (a code cache, a transpiled config).
 */
export function privateDirectory(directory: string): string | undefined {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stats = statSync(directory);
    const uid = process.getuid?.();
    if (!stats.isDirectory() || (stats.mode & 0o022) !== 0) return undefined;
    if (uid !== undefined && stats.uid !== uid) return undefined;
    return directory;
  } catch {
    return undefined;
  }
}
