import { mkdir, lstat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { STARTER_FILES, type StarterFile } from './starter-files.js';

/** `cosi init` found files of the starter project already there: it wrote nothing. */
export class StarterFilesExistError extends Error {
  constructor(
    readonly existing: readonly string[],
    /** Directories on the way to the files that are links (which could lead out of the project). */
    readonly links: readonly string[] = [],
  ) {
    const there =
      existing.length === 0
        ? []
        : [`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}`];
    const linked =
      links.length === 0
        ? []
        : [
            `${links.join(', ')} ${links.length === 1 ? 'is a link' : 'are links'} (a file written through one could land outside the project)`,
          ];
    super(
      `${[...there, ...linked].join('; ')}: cosi init writes a new project and overwrites nothing (run it in an empty directory, or move these away)`,
    );
    this.name = 'StarterFilesExistError';
  }
}

/**
 * Writes the starter project into `dir` (made if missing) and returns the files written,
 * relative to it (a file of another `base`, the CI job at the repository's root, too). Nothing is overwritten: when any of the files exists (whatever it is: a file,
 * a directory, a link), or a directory on its way is a link (which would take it out of `dir`),
 * none is written and the error names every one; a file that appears
 * between the check and the write (another process) is not replaced either (`wx`). A file
 * written only when absent (`unlessThere`: the tsconfig.json) is left out when it is there.
 *
 * @throws StarterFilesExistError, or the file system's error.
 */
export async function writeStarterProject(
  dir: string,
  files: readonly StarterFile[] = STARTER_FILES,
): Promise<string[]> {
  const existing: string[] = [];
  const links: string[] = [];
  const written: StarterFile[] = [];
  // A file of another base (the CI job at the repository's root) is named from the project.
  const shown = (file: StarterFile, relative = file.path) =>
    file.base === undefined
      ? relative
      : path.relative(dir, path.join(file.base, relative)).split(path.sep).join('/');
  for (const file of files) {
    const base = file.base ?? dir;
    // A directory on the way that is a link would take the file out of the project.
    const link = await linkOnTheWay(base, file.path);
    if (link !== undefined) {
      if (!links.includes(shown(file, link))) links.push(shown(file, link));
    } else if (!(await exists(path.join(base, file.path)))) written.push(file);
    else if (file.unlessThere !== true) existing.push(shown(file));
  }
  if (existing.length > 0 || links.length > 0) throw new StarterFilesExistError(existing, links);
  for (const file of written) {
    const target = path.join(file.base ?? dir, file.path);
    await makeDirectory(path.dirname(target));
    try {
      await writeFile(target, file.text, { flag: 'wx' });
    } catch (error) {
      // Made meanwhile: kept, as one there before would have been.
      if (file.unlessThere === true && (error as NodeJS.ErrnoException).code === 'EEXIST') {
        continue;
      }
      throw error;
    }
  }
  return written.map((f) => shown(f));
}

/**
 * `mkdir -p`, a level at a time: Node's own recursive `mkdir` never returns where a directory
 * cannot be made and says "no such file" (`/proc/x`); here that is the error.
 */
async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = path.dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw error;
    await makeDirectory(parent);
    await mkdir(dir);
  }
}

/** The first directory of `relative`'s path below `dir` that is a symbolic link, if one is. */
async function linkOnTheWay(dir: string, relative: string): Promise<string | undefined> {
  const parts = relative.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const sub = parts.slice(0, i).join('/');
    try {
      if ((await lstat(path.join(dir, sub))).isSymbolicLink()) return sub;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
  return undefined;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
