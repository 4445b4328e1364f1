import { readdirSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Keeps a cache directory bounded: when it holds more than `most` files, the oldest written are
 * removed until `most * 0.8` are left (so the files are not counted and dated at every write),
 * but never one `keep` names. Called after a write, which is rare (a cache miss): a directory of
 * `most` files is listed in about a millisecond, and dated only when it is over. Best effort: a
 * file another run removes, or a directory that cannot be read, is no error.
 *
 * A cache is named by what it is of (a config's path, an install's place), so without a bound
 * every project a machine ever ran (every test's temporary one) stays in it for good.
 */
export function pruneCacheDirectory(
  directory: string,
  most: number,
  keep: (name: string) => boolean = () => false,
): void {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  if (names.length <= most) return;
  const dated: { readonly name: string; readonly written: number }[] = [];
  for (const name of names) {
    if (keep(name)) continue;
    try {
      dated.push({ name, written: statSync(path.join(directory, name)).mtimeMs });
    } catch {
      // Removed meanwhile.
    }
  }
  dated.sort((a, b) => a.written - b.written || (a.name < b.name ? -1 : 1));
  const excess = names.length - Math.floor(most * 0.8);
  for (const { name } of dated.slice(0, Math.max(0, excess))) {
    rmSync(path.join(directory, name), { force: true });
  }
}
