import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { applyCommand } from './commands/apply.js';
import { checkCommand } from './commands/check.js';
import { getCommand } from './commands/get.js';
import { graphCommand } from './commands/graph.js';
import { watchCommand } from './commands/watch.js';
import { CliError, EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';

/** The package version, shown by `cosi --version` (the same file in `src/` and `dist/`). */
export const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;

/**
 * A fresh commander program writing to `io`. Commands report their exit code through `exit`;
 * commander's own exits (help, usage errors) are thrown as `CommanderError`s.
 */
export function createCli(io: CliIo, exit: (code: number) => void): Command {
  const program = new Command('cosi')
    .description('Run COSI controllers on YAML manifests, without a cluster.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `
Examples:
  cosi apply -f fixtures/vm-network           run the example project and print its state
  cosi get vm -f fixtures/vm-network -o yaml  print one type after the run
  cosi watch -f fixtures/vm-network           re-run on every file change, with a live view`,
    );
  for (const command of [
    applyCommand(io, exit),
    getCommand(io, exit),
    checkCommand(io, exit),
    graphCommand(io, exit),
    watchCommand(io, exit),
  ]) {
    program.addCommand(
      command.exitOverride().configureOutput({
        writeOut: (text) => io.stdout.write(text),
        writeErr: (text) => io.stderr.write(text),
      }),
    );
  }
  return program;
}

/**
 * Runs the CLI on `argv` (without `node` and the script) and returns the exit code. The one
 * top-level catch: a `CliError` becomes its exit code and message, commander's usage errors exit
 * 2, anything else is a bug and prints its stack.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let code: number = EXIT.ok;
  const program = createCli(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      io.stderr.write(`cosi: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(
      `cosi: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT.usage;
  }
}
