import type { Command } from 'commander';
import type { CliCommand, CommandResult } from './command.js';
import type { CliIo } from './io.js';

/**
 * A command whose definition is at hand and whose module is imported only when it runs: a
 * command's module brings the engine, the loaders and its renderers, and a process runs one
 * command. Help and completion need the definitions alone.
 */
export function lazyCommand<Args extends unknown[]>(
  define: () => Command,
  load: () => Promise<CliCommand<Args>>,
): CliCommand<Args> {
  return {
    define,
    run: async (io: CliIo, ...args: Args): Promise<CommandResult> =>
      (await load()).run(io, ...args),
  };
}
