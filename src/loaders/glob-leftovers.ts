/**
 * What a glob matches that tinyglobby does not give: links to nothing, named pipes, sockets.
 * tinyglobby lists only files and directories, so `cosi check 'm/*.yaml'` passed where `cosi
 * check m`, whose walk reports them, failed. The directories the glob looks in are read again,
 * and their other entries matched with picomatch, as tinyglobby matches.
 */

import * as path from 'node:path';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import type { ManifestDirEntry, ManifestFileSystem } from './manifest-file-system.js';

/**
 * The entries (relative to `cwd`, `/`-separated, sorted) that `pattern` matches and that are
 * neither in `found` nor a file or a directory, nor a link to one.
 */
export async function globLeftovers(
  fs: ManifestFileSystem,
  cwd: string,
  pattern: string,
  found: ReadonlySet<string>,
): Promise<string[]> {
  const posix = pattern.split(path.sep).join('/');
  const matches = picomatch(posix);
  const dir = path.posix.dirname(posix);
  // `a/**` matches below every directory under `a`, not only in `a`.
  const looked = path.posix.basename(posix).includes('**') ? [dir, posix] : [dir];
  const dirs = new Set<string>();
  for (const where of looked) {
    if (!picomatch.scan(where).isGlob) {
      dirs.add(where);
      continue;
    }
    const under = await glob(where, { cwd, onlyDirectories: true, expandDirectories: false });
    for (const d of under) dirs.add(d.replace(/\/$/, ''));
  }
  const others: string[] = [];
  for (const d of dirs) {
    let entries: readonly ManifestDirEntry[];
    try {
      entries = await fs.readdir(path.resolve(cwd, d));
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isFile() || entry.isDirectory()) continue;
      const relative = d === '.' ? entry.name : `${d}/${entry.name}`;
      if (found.has(relative) || !matches(relative)) continue;
      if (entry.isSymbolicLink()) {
        // A link to a file or a directory is tinyglobby's to give (or to leave, as a directory).
        const target = await fs.stat(path.resolve(cwd, relative)).catch(() => undefined);
        if (target !== undefined && (target.isFile() || target.isDirectory())) continue;
      }
      others.push(relative);
    }
  }
  return others.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
