import type { Command } from 'commander';
import type { CliCommand, CommandResult } from './command.js';
import type { CliIo } from './io.js';

/**
 * A command whose definition is at hand and whose module is imported only when it runs: a
 * command's module brings the engine, the loaders and its renderers, and a process runs one
 * command. Help and completion need the definitions alone. `render` is called after `run`, so
 * the module is loaded by then.
 */
export function lazyCommand<Args extends unknown[], Result>(
  define: () => Command,
  load: () => Promise<CliCommand<Args, Result>>,
): CliCommand<Args, Result> {
  let loaded: CliCommand<Args, Result> | undefined;
  const loadOnce = async (): Promise<CliCommand<Args, Result>> => (loaded ??= await load());
  return {
    define,
    run: async (io: CliIo, ...args: Args): Promise<CommandResult<Result>> =>
      (await loadOnce()).run(io, ...args),
    render: (io: CliIo, result: CommandResult<Result>, ...args: Args): void | Promise<void> => {
      if (!loaded) throw new Error('lazyCommand: render before run');
      return loaded.render(io, result, ...args);
    },
  };
}
