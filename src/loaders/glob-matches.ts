/**
 * What a glob names, as a shell would expand it: the files and directories it matches
 * (`cosi check 'm/*'`, `--each 'clusters/*\/'`), and what it matches that is neither.
 */

import { compareStrings } from '../engine/compare-strings.js';
import { globLeftovers } from './glob-leftovers.js';
import type { ManifestFileSystem } from './manifest-file-system.js';

/** What {@link globMatches} returns, each path relative to `cwd`, `/`-separated, sorted. */
export interface GlobMatches {
  /**
   * The files and directories (links to one included) the pattern matches, without a trailing
   * `/`; only directories for a pattern that ends in `/`.
   */
  readonly paths: readonly string[];
  /** What it matches that is neither: a link to nothing, a named pipe, a socket. */
  readonly others: readonly string[];
}

/**
 * The paths a glob matches, as a shell expands it: files and directories alike, a pattern that
 * ends in `/` matching directories only. tinyglobby gives files for `m/*\/` too, and no link to
 * a directory; both are set right here.
 *
 * @example
 * const { paths } = await globMatches(nodeFileSystem, cwd, 'clusters/*\/'); // ['clusters/a']
 */
export async function globMatches(
  fs: ManifestFileSystem,
  cwd: string,
  pattern: string,
): Promise<GlobMatches> {
  const { glob } = await import('tinyglobby');
  const onlyDirectories = pattern.endsWith('/');
  const found = await glob(pattern, { cwd, onlyFiles: false, expandDirectories: false });
  const matched = onlyDirectories ? found.filter((m) => m.endsWith('/')) : found;
  const { others, linkedDirectories } = await globLeftovers(fs, cwd, pattern, new Set(found));
  const paths = [...matched.map((m) => m.replace(/\/+$/, '') || '.'), ...linkedDirectories];
  return { paths: [...new Set(paths)].sort(compareStrings), others };
}
