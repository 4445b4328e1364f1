import type { Command } from 'commander';
import type { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';

/**
 * What a command returns: its exit code and the data it shows (`result`), which its renderer
 * prints. A command that streams its output as it goes (`watch`, `run`) has no data to return.
 */
export interface CommandResult<Result = undefined> {
  readonly exitCode: ExitCode;
  readonly result: Result;
}

/**
 * A command of the CLI: its commander definition (arguments, flags, help), the function that
 * runs it, given commander's action arguments (the positional arguments, then the flags), and
 * the renderer that prints what it returned. `createCli` joins the three; `run` can be called
 * without commander, and it writes nothing to `io` (it reads `cwd`, `env` and stdin from it):
 * only `render` does. Exceptions, which print as they go: the long-running commands (`watch`,
 * `run`), and `-v`'s logs of a run and config line, streamed to stderr while the run is on.
 */
export interface CliCommand<Args extends unknown[], Result = undefined> {
  define(): Command;
  run(io: CliIo, ...args: Args): Promise<CommandResult<Result>>;
  /**
   * Prints `result` to `io` (stdout the data, stderr findings and the report), as `args` ask;
   * a file output asked for (`--trace`) is written after them.
   */
  render(io: CliIo, result: CommandResult<Result>, ...args: Args): void | Promise<void>;
}

/** The renderer of a command that has printed everything by the time it returns. */
export function renderedAlready(): void {
  // Nothing left to print: the command wrote as it went.
}
