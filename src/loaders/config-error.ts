import { shortenMessage } from './shorten.js';

/**
 * A config that could not be loaded, or that is wrong: the file and every problem found, one
 * line each. A usage error for the CLI.
 */
export class ConfigError extends Error {
  readonly code = 'config';
  /** What is wrong, without the file: one entry per problem. */
  readonly problems: readonly string[];
  /** Where in the file, when known (a statement that threw while the config loaded). */
  readonly line: number | undefined;
  readonly col: number | undefined;

  constructor(
    readonly file: string,
    problems: string | readonly string[],
    options?: { cause?: unknown; line?: number; col?: number },
  ) {
    // A problem may quote the config's values or a thrown error's text: each stays one short line.
    const list = (typeof problems === 'string' ? [problems] : problems).map((p) =>
      shortenMessage(p),
    );
    const at = options?.line === undefined ? file : `${file}:${options.line}:${options.col ?? 1}`;
    super(list.map((problem) => `${at}: ${problem}`).join('\n'), { cause: options?.cause });
    this.problems = list;
    this.line = options?.line;
    this.col = options?.col;
    this.name = 'ConfigError';
  }

  /** The same error, its file named as given (a display path, say). */
  withFile(file: string): ConfigError {
    return new ConfigError(file, this.problems, {
      cause: this.cause,
      ...(this.line !== undefined ? { line: this.line, col: this.col ?? 1 } : {}),
    });
  }
}
