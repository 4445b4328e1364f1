import * as path from 'node:path';
import { displayPath } from '../../app/display-path.js';
import type { ConfigError } from '../../loaders/load-config.js';

/** A position in a config file or a script it imports. */
export interface ConfigErrorLocation {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

const POSITION = /((?:[A-Za-z]:)?[^\s():]+\.[cm]?[jt]sx?):(\d+):(\d+)/g;

/**
 * Where a config failed to load: the first position of the config's directory in the error's
 * message (a syntax error names it) or in the stack of its cause (an error thrown while the config
 * ran). jiti maps the stack to the TypeScript source, so the line is the one the user wrote.
 * Dependencies (`node_modules`) are skipped: the line to fix is the user's. Relative paths are
 * from `cwd`.
 */
export function locateConfigError(
  error: ConfigError,
  cwd: string,
): ConfigErrorLocation | undefined {
  const dir = path.dirname(path.resolve(cwd, error.file));
  const cause = error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : '';
  for (const text of [error.message, cause]) {
    for (const [, file = '', line = '0', col = '0'] of text.matchAll(POSITION)) {
      const absolute = path.resolve(cwd, file);
      if (
        !absolute.startsWith(dir + path.sep) ||
        absolute.includes(`${path.sep}node_modules${path.sep}`)
      ) {
        continue;
      }
      return { file: absolute, line: Number(line), col: Number(col) };
    }
  }
  return undefined;
}

/**
 * A config error for the watch view: `file:line:col: problem` when the position is known (a
 * syntax error, an exception while the config ran), else the error's own message; one line per
 * problem, the first line of each.
 */
export function describeConfigError(error: ConfigError, cwd: string): string {
  const at = locateConfigError(error, cwd);
  const file = displayPath(cwd, at?.file ?? error.file);
  const where = at ? `${file}:${at.line}:${at.col}` : file;
  return error.problems
    .map((problem) => `${where}: ${(problem.split('\n', 1)[0] ?? '').trim()}`)
    .join('\n');
}
