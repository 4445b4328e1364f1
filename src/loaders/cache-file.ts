import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes a file of a cache (a code cache, a transpiled config, the forms of names) whole or not at
 * all: to a file of its own first, then renamed, so that a concurrent run never reads half of it;
 * readable by its owner only. Returns whether it was written: a cache is kept to save time, and a
 * full disk or a read-only directory costs only that time.
 */
export function writeCacheFile(file: string, data: string | Uint8Array): boolean {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
    return true;
  } catch {
    rmSync(temporary, { force: true });
    return false;
  }
}
