import type { Command } from 'commander';
import type { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';

/** What a command returns once it has written its output. */
export interface CommandResult {
  readonly exitCode: ExitCode;
}

/**
 * A command of the CLI: its commander definition (arguments, flags, help) and the function that
 * runs it, given commander's action arguments (the positional arguments, then the flags).
 * `createCli` joins the two; the function can be called without commander too.
 */
export interface CliCommand<Args extends unknown[]> {
  define(): Command;
  run(io: CliIo, ...args: Args): Promise<CommandResult>;
}
