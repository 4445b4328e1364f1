import { shortenMessage } from './shorten.js';

/**
 * A place in the config file, 1-based line and column; or in a module the config imports, named
 * by `file` (as the error's own file is named: absolute, until `withFile` names both for display).
 */
export interface ConfigPlace {
  readonly line: number;
  readonly col: number;
  readonly file?: string;
}

/** A problem with a place of its own in the file (the key it is about). */
export interface PlacedConfigProblem {
  readonly message: string;
  readonly at?: ConfigPlace;
}

/**
 * A config that could not be loaded, or that is wrong: the file and every problem found, one
 * line each, each at its own place in the file when it has one, else at the error's (a
 * statement that threw), else the file's. A usage error for the CLI.
 */
export class ConfigError extends Error {
  readonly code = 'config';
  /** What is wrong, without the file: one entry per problem. */
  readonly problems: readonly string[];
  /** Where each problem is (same order as `problems`), when known. */
  readonly places: readonly (ConfigPlace | undefined)[];
  /** Where in the file, when known: the error's own place, else its first problem's. */
  readonly line: number | undefined;
  readonly col: number | undefined;

  constructor(
    readonly file: string,
    problems: string | readonly (string | PlacedConfigProblem)[],
    options?: { cause?: unknown; line?: number; col?: number; file?: string },
  ) {
    const given = (typeof problems === 'string' ? [problems] : problems).map((p) =>
      typeof p === 'string' ? { message: p } : p,
    );
    // A problem may quote the config's values or a thrown error's text: each stays one short line.
    const list = given.map((p) => shortenMessage(p.message));
    const own: ConfigPlace | undefined =
      options?.line === undefined
        ? undefined
        : {
            line: options.line,
            col: options.col ?? 1,
            ...(options.file === undefined ? {} : { file: options.file }),
          };
    const places = given.map((p) => p.at ?? own);
    const where = (at: ConfigPlace | undefined): string =>
      at === undefined ? file : `${at.file ?? file}:${at.line}:${at.col}`;
    super(list.map((problem, i) => `${where(places[i])}: ${problem}`).join('\n'), {
      cause: options?.cause,
    });
    this.problems = list;
    this.places = places;
    const first = own ?? places.find((at) => at !== undefined);
    this.line = first?.line;
    this.col = first?.col;
    this.name = 'ConfigError';
  }

  /** Each problem with its place, for a caller that reports them one by one. */
  placedProblems(): PlacedConfigProblem[] {
    return this.problems.map((message, i) => {
      const at = this.places[i];
      return at === undefined ? { message } : { message, at };
    });
  }

  /**
   * The same error, its file named as given (a display path, say), and a module's place named by
   * `nameOf` (the same display).
   */
  withFile(file: string, nameOf: (module: string) => string = (module) => module): ConfigError {
    const renamed = this.placedProblems().map(({ message, at }) =>
      at?.file === undefined
        ? { message, ...(at ? { at } : {}) }
        : { message, at: { ...at, file: nameOf(at.file) } },
    );
    return new ConfigError(file, renamed, { cause: this.cause });
  }
}
