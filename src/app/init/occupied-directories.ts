import { lstat, readdir } from 'node:fs/promises';
import * as path from 'node:path';

/** A directory the starter project reads whole that already holds files of the user's. */
export interface OccupiedDirectory {
  /** The directory, relative to the project. */
  readonly dir: string;
  /** What it holds that the starter would not write, sorted. */
  readonly entries: readonly string[];
}

/**
 * The directories of `readWhole` (relative to `project`) that hold anything but the starter's
 * own files (`starterPaths`, relative to the project): a manifest there would join the starter's
 * state, a file of `expected/` its golden tree. A directory that is missing, empty or not a
 * directory (refused as a file in the way) is not occupied.
 *
 * @example
 * await occupiedDirectories('/p', ['manifests'], ['manifests/apps.yaml'])
 * // with /p/manifests/cm.yaml: [{ dir: 'manifests', entries: ['cm.yaml'] }]
 */
export async function occupiedDirectories(
  project: string,
  readWhole: readonly string[],
  starterPaths: readonly string[],
): Promise<OccupiedDirectory[]> {
  const occupied: OccupiedDirectory[] = [];
  for (const dir of readWhole) {
    const full = path.join(project, dir);
    try {
      if (!(await lstat(full)).isDirectory()) continue;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw error;
    }
    const entries = (await readdir(full))
      .filter((name) => !starterPaths.includes(`${dir}/${name}`))
      .sort();
    if (entries.length > 0) occupied.push({ dir, entries });
  }
  return occupied;
}
