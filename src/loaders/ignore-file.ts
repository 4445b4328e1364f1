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
 * `cd p && cosi check .` does), then `--ignore`.
 */
export async function ignorePatterns(options: {
  readonly cwd: string;
  readonly ignore?: readonly string[];
  /** The paths a command names (files, directories, globs): directories' files are read. */
  readonly paths?: readonly string[];
}): Promise<string[]> {
  const named = await namedDirectoryPatterns(options.cwd, options.paths ?? []);
  return [
    ...SCENARIO_FILE_PATTERNS,
    ...(await readIgnoreFile(options.cwd)).map(anchoredPattern),
    ...named,
    ...(options.ignore ?? []).map(anchoredPattern),
  ];
}

/**
 * The `.cosiignore` patterns of the directories named in `paths` (other than the working
 * directory), each scoped to its directory as git scopes a nested `.gitignore`'s: a pattern with
 * a slash before its end is anchored there (`/expected/` in `p` is `/p/expected/`), any other
 * matches at any depth below it (`*.bak` is `*.bak` in any directory under `/p/`). A directory outside the working
 * directory is walked with paths relative to itself: its patterns are as written.
 */
async function namedDirectoryPatterns(cwd: string, paths: readonly string[]): Promise<string[]> {
  const patterns: string[] = [];
  const seen = new Set<string>([path.resolve(cwd)]);
  for (const given of paths) {
    const dir = path.resolve(cwd, given);
    if (seen.has(dir)) continue;
    seen.add(dir);
    try {
      if (!(await stat(dir)).isDirectory()) continue;
    } catch {
      continue;
    }
    const relative = path.relative(cwd, dir);
    const outside =
      relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
    const prefix = relative.split(path.sep).join('/');
    for (const line of await readIgnoreFile(dir)) {
      const pattern = anchoredPattern(line);
      patterns.push(outside ? pattern : scopedPattern(pattern, prefix));
    }
  }
  return patterns;
}

/** A `.gitignore` pattern of directory `prefix` (relative, `/`-separated), as the root reads it. */
function scopedPattern(pattern: string, prefix: string): string {
  const negated = pattern.startsWith('!');
  const body = negated ? pattern.slice(1) : pattern;
  // A slash anywhere but at the end anchors the pattern to its file's directory.
  const anchored = body.replace(/\/$/, '').includes('/');
  const scoped = anchored ? `/${prefix}/${body.replace(/^\//, '')}` : `/${prefix}/**/${body}`;
  return `${negated ? '!' : ''}${scoped}`;
}
