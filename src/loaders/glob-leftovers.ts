/**
 * What a glob matches that tinyglobby does not give: links to nothing, named pipes, sockets,
 * and links to directories. tinyglobby lists only files and directories, so `cosi check
 * 'm/*.yaml'` passed where `cosi check m`, whose walk reports them, failed; and it leaves out a
 * link to a directory, which a shell's expansion names. The directories the glob looks in are
 * read again, and their other entries matched with picomatch, as tinyglobby matches.
 */

import * as path from 'node:path';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import type { ManifestDirEntry, ManifestFileSystem } from './manifest-file-system.js';

/** What {@link globLeftovers} finds, each entry relative to `cwd`, `/`-separated, sorted. */
export interface GlobLeftovers {
  /** Entries that are neither a file nor a directory, nor a link to one. */
  readonly others: readonly string[];
  /** Links to a directory: a directory the glob matches, as a shell expands it. */
  readonly linkedDirectories: readonly string[];
}

/** What `pattern` matches that is not in `found` and tinyglobby does not give (see above). */
export async function globLeftovers(
  fs: ManifestFileSystem,
  cwd: string,
  pattern: string,
  found: ReadonlySet<string>,
): Promise<GlobLeftovers> {
  const posix = pattern.split(path.sep).join('/');
  const matches = picomatch(posix);
  // `m/*/` matches directories only: `m/a/`, not `m/a`.
  const matchesDirectory = (relative: string): boolean =>
    matches(relative) || matches(`${relative}/`);
  const stem = posix.replace(/\/+$/, '');
  const dir = path.posix.dirname(stem);
  // `a/**` matches below every directory under `a`, not only in `a`.
  const looked = path.posix.basename(stem).includes('**') ? [dir, stem] : [dir];
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
  const linkedDirectories: string[] = [];
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
      if (found.has(relative) || found.has(`${relative}/`)) continue;
      if (entry.isSymbolicLink()) {
        const target = await fs.stat(path.resolve(cwd, relative)).catch(() => undefined);
        if (target?.isDirectory() === true) {
          if (matchesDirectory(relative)) linkedDirectories.push(relative);
          continue;
        }
        // A link to a file is tinyglobby's to give.
        if (target?.isFile() === true) continue;
      }
      if (matches(relative)) others.push(relative);
    }
  }
  const sorted = (list: string[]): string[] => list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { others: sorted(others), linkedDirectories: sorted(linkedDirectories) };
}
