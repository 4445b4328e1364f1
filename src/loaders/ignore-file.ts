import { readFile } from 'node:fs/promises';
import * as path from 'node:path';

/** The file whose lines say what manifest walks skip, in `.gitignore` syntax. */
export const IGNORE_FILE = '.cosiignore';

/**
 * The patterns of `.cosiignore` in `dir` (blank lines and `#` comments left out); none when there
 * is no such file. A byte order mark before the first line is left out, as git leaves it out of a
 * `.gitignore`: an editor on Windows writes one, and the first pattern then matched nothing.
 */
export async function readIgnoreFile(dir: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path.join(dir, IGNORE_FILE), 'utf8');
  } catch {
    return [];
  }
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && !line.startsWith('#'));
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
 * The patterns manifest walks skip: scenario files, `.cosiignore` in the working directory, then
 * `--ignore`.
 */
export async function ignorePatterns(options: {
  readonly cwd: string;
  readonly ignore?: readonly string[];
}): Promise<string[]> {
  return [
    ...SCENARIO_FILE_PATTERNS,
    ...(await readIgnoreFile(options.cwd)).map(anchoredPattern),
    ...(options.ignore ?? []).map(anchoredPattern),
  ];
}
