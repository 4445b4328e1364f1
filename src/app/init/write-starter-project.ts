import { mkdir, lstat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { occupiedDirectories, type OccupiedDirectory } from './occupied-directories.js';
import { STARTER_FILES, STARTER_READ_WHOLE, type StarterFile } from './starter-files.js';

/** `cosi init` found files of the starter project already there: it wrote nothing. */
export class StarterFilesExistError extends Error {
  constructor(
    readonly existing: readonly string[],
    /** Directories on the way to the files that are links (which could lead out of the project). */
    readonly links: readonly string[] = [],
    /** Directories the starter reads whole that hold files of the user's. */
    readonly occupied: readonly OccupiedDirectory[] = [],
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
    const held = occupied.map(
      ({ dir, entries }) =>
        `${dir}/ already holds ${named(entries)}, which the starter project would read as its own (it reads every file of ${dir}/: its check would not pass)`,
    );
    const where =
      occupied.length === 0
        ? 'run it in an empty directory, or move these away'
        : 'run it in an empty directory (cosi init DIR makes one), or move these away';
    super(
      `${[...there, ...linked, ...held].join('; ')}: cosi init writes a new project and overwrites nothing (${where})`,
    );
    this.name = 'StarterFilesExistError';
  }
}

/** Names, the first three of them and how many more. */
function named(entries: readonly string[]): string {
  const shown = entries.slice(0, 3).join(', ');
  return entries.length > 3 ? `${shown} and ${entries.length - 3} more` : shown;
}

/**
 * Writes the starter project into `dir` (made if missing) and returns the files written,
 * relative to it (a file of another `base`, the CI job at the repository's root, too). Nothing is overwritten: when any of the files exists (whatever it is: a file,
 * a directory, a link), or a directory on its way is a link (which would take it out of `dir`),
 * none is written and the error names every one; a file that appears
 * between the check and the write (another process) is not replaced either (`wx`). A file
 * written only when absent (`unlessThere`: the tsconfig.json) is left out when it is there.
 * A directory of `readWhole` that holds files of the user's is refused too: the starter would
 * read them as its own manifests or golden files, and not pass `cosi check` (a file where a
 * directory of the starter's goes is named as there).
 *
 * @throws StarterFilesExistError, or the file system's error.
 */
export async function writeStarterProject(
  dir: string,
  files: readonly StarterFile[] = STARTER_FILES,
  readWhole: readonly string[] = STARTER_READ_WHOLE,
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
    const inTheWay = link === undefined ? await fileOnTheWay(base, file.path) : undefined;
    if (link !== undefined) {
      if (!links.includes(shown(file, link))) links.push(shown(file, link));
    } else if (inTheWay !== undefined) {
      if (!existing.includes(shown(file, inTheWay))) existing.push(shown(file, inTheWay));
    } else if (!(await exists(path.join(base, file.path)))) written.push(file);
    else if (file.unlessThere !== true) existing.push(shown(file));
  }
  const occupied = await occupiedDirectories(
    dir,
    readWhole,
    files.filter((file) => file.base === undefined).map((file) => file.path),
  );
  if (existing.length > 0 || links.length > 0 || occupied.length > 0) {
    throw new StarterFilesExistError(existing, links, occupied);
  }
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

/**
 * The first directory of `relative`'s path below `dir` that is there but is no directory (a file
 * named `manifests`): the starter's file cannot go below it.
 */
async function fileOnTheWay(dir: string, relative: string): Promise<string | undefined> {
  const parts = relative.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const sub = parts.slice(0, i).join('/');
    try {
      if (!(await lstat(path.join(dir, sub))).isDirectory()) return sub;
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
