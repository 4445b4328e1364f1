import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';

/** The file whose lines say what manifest walks skip, in `.gitignore` syntax. */
export const IGNORE_FILE = '.cosiignore';

/**
 * The patterns of `.cosiignore` in `dir` (blank lines and `#` comments left out); none when there
 * is no such file. A byte order mark before the first line is left out, as git leaves it out of a
 * `.gitignore`: an editor on Windows writes one, and the first pattern then matched nothing.
 */
export async function readIgnoreFile(dir: string): Promise<string[]> {
  const text = await readRegularFile(path.join(dir, IGNORE_FILE));
  if (text === undefined) return [];
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The text of `file` when it is a regular file; `undefined` when it is not there, cannot be read
 * or is something else, as git reads no `.gitignore` that is not a file. Opened without blocking
 * and looked at before it is read: a FIFO of that name, which no one writes, blocked the run for
 * ever.
 */
async function readRegularFile(file: string): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    return await handle.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * `cosi test`'s scenario files are never manifests: directory walks skip them, so a scenario can
 * sit beside the manifests it tests (a `.cosiignore` line `!*.cosi-test.yaml` reads them again).
 */
export const SCENARIO_FILE_PATTERNS = ['*.cosi-test.yaml', '*.cosi-test.yml'] as const;

/**
 * A pattern written from the working directory (`./vendor`, `!./vendor/keep.yaml`) as git's
 * syntax anchors it there (`/vendor`): in a `.gitignore`, `./vendor` matches nothing, and
 * `--ignore ./vendor` skipped nothing without a word. Any other pattern is as written.
 */
export function anchoredPattern(pattern: string): string {
  const negated = pattern.startsWith('!');
  const body = negated ? pattern.slice(1) : pattern;
  if (!body.startsWith('./')) return pattern;
  return `${negated ? '!' : ''}/${body.slice(2).replace(/^(?:\.\/)+/, '')}`;
}

/**
 * The patterns manifest walks skip: scenario files, `.cosiignore` in the working directory and in
 * each directory named in `paths` (`cosi check p` after `cosi init p` reads `p/.cosiignore`, as
 * `cd p && cosi check .` does), then `--ignore`. They are matched against paths relative to the
 * working directory, or to the {@link ignoreBase} when a directory named holds the working
 * directory (`cosi check ..`).
 */
export async function ignorePatterns(options: {
  readonly cwd: string;
  readonly ignore?: readonly string[];
  /** The paths a command names (files, directories, globs): directories' files are read. */
  readonly paths?: readonly string[];
}): Promise<string[]> {
  const cwd = path.resolve(options.cwd);
  const base = await ignoreBase(cwd, options.paths ?? [], isDirectory);
  const named = await namedDirectoryPatterns(cwd, options.paths ?? [], base);
  // Below a named directory that holds it, the working directory's patterns are a nested
  // `.gitignore`'s: scoped to it. An `--ignore` pattern without a slash (`drafts/`, `*.bak`)
  // still matches anywhere, as it did in the working directory.
  const own = (pattern: string): string =>
    base === undefined ? pattern : scopedPattern(pattern, prefixOf(base, cwd));
  const given = (pattern: string): string =>
    base === undefined || !isAnchored(pattern) ? pattern : own(pattern);
  const ownFile = { dir: cwd, patterns: (await readIgnoreFile(cwd)).map(anchoredPattern).map(own) };
  // A deeper file's patterns come after, and win, as a nested `.gitignore`'s do: below a named
  // directory that holds it, the working directory's after that directory's.
  const files =
    base === undefined
      ? [ownFile, ...named]
      : [ownFile, ...named].sort((a, b) => depthOf(a.dir) - depthOf(b.dir));
  return [
    ...SCENARIO_FILE_PATTERNS,
    ...files.flatMap((f) => f.patterns),
    ...(options.ignore ?? []).map(anchoredPattern).map(given),
  ];
}

function depthOf(dir: string): number {
  return dir.split(path.sep).filter(Boolean).length;
}

/**
 * The outermost directory named in `paths` that holds the working directory (`..` in `cosi check
 * ..`, or its absolute path), if any: the ignore patterns are then matched against paths relative
 * to it, each `.cosiignore` scoped to its own directory as git scopes nested `.gitignore`s.
 * Matched from the working directory, a negation of that directory's `.cosiignore`
 * (`!sub/keep.yaml`) kept nothing below the working directory, and its `sub/*` skipped nothing
 * there.
 */
export async function ignoreBase(
  cwd: string,
  paths: readonly string[],
  directory: (dir: string) => Promise<boolean>,
): Promise<string | undefined> {
  let base: string | undefined;
  for (const given of paths) {
    if (given === '' || given === '-') continue;
    const dir = path.resolve(cwd, given);
    if (!cwd.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`)) continue;
    if (base !== undefined && dir.length >= base.length) continue;
    if (await directory(dir)) base = dir;
  }
  return base;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** `dir` relative to `base`, `/`-separated. */
function prefixOf(base: string, dir: string): string {
  return path.relative(base, dir).split(path.sep).join('/');
}

/**
 * The `.cosiignore` patterns of the directories named in `paths` (other than the working
 * directory), each scoped to its directory as git scopes a nested `.gitignore`'s: a pattern with
 * a slash before its end is anchored there (`/expected/` in `p` is `/p/expected/`), any other
 * matches at any depth below it (`*.bak` is `*.bak` in any directory under `/p/`). Scoped from
 * the working directory, or from `base` (see {@link ignoreBase}), whose own patterns are as
 * written. A directory outside them is walked with paths relative to itself: its patterns are as
 * written.
 */
async function namedDirectoryPatterns(
  cwd: string,
  paths: readonly string[],
  base: string | undefined,
): Promise<{ readonly dir: string; readonly patterns: string[] }[]> {
  const files: { readonly dir: string; readonly patterns: string[] }[] = [];
  const from = base ?? cwd;
  const seen = new Set<string>([cwd]);
  for (const given of paths) {
    const dir = path.resolve(cwd, given);
    if (seen.has(dir)) continue;
    seen.add(dir);
    if (!(await isDirectory(dir))) continue;
    const relative = path.relative(from, dir);
    const outside =
      relative === '' ||
      relative === '..' ||
      relative.startsWith(`..${path.sep}`) ||
      path.isAbsolute(relative);
    const prefix = relative.split(path.sep).join('/');
    const patterns = (await readIgnoreFile(dir))
      .map(anchoredPattern)
      .map((pattern) => (outside ? pattern : scopedPattern(pattern, prefix)));
    files.push({ dir, patterns });
  }
  return files;
}

/** Whether a `.gitignore` pattern is anchored to its file's directory: a slash before its end. */
function isAnchored(pattern: string): boolean {
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  return body.replace(/\/$/, '').includes('/');
}

/** A `.gitignore` pattern of directory `prefix` (relative, `/`-separated), as the root reads it. */
function scopedPattern(pattern: string, prefix: string): string {
  const negated = pattern.startsWith('!');
  const body = negated ? pattern.slice(1) : pattern;
  // A slash anywhere but at the end anchors the pattern to its file's directory.
  const scoped = isAnchored(body)
    ? `/${prefix}/${body.replace(/^\//, '')}`
    : `/${prefix}/**/${body}`;
  return `${negated ? '!' : ''}${scoped}`;
}
