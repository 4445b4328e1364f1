import { Command } from 'commander';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { addPathArguments, addProjectOptions, toRunOptions, type CommonFlags } from '../options.js';
import { createColors } from '../render/report.js';
import { createWatchView } from '../ui/watch-view.js';
import { watchWithChokidar, type WatchFiles } from '../watch/file-watcher.js';
import { startWatchSession } from '../watch/watch-session.js';

export interface WatchFlags extends CommonFlags {
  namespace?: string;
  type?: string;
}

/** `cosi watch -f PATH...`: apply, then re-reconcile on every file change, with a live view. */
export const watchCommand: CliCommand<[string[], WatchFlags]> = {
  define,
  run: (io, paths, flags) => watch(io, paths, flags),
};

function define(): Command {
  const command = new Command('watch')
    .summary('apply, then re-reconcile on every file change, with a live view')
    .description(
      'Starts like cosi apply, then keeps the controllers running. When a manifest changes, is ' +
        'added or is removed (changes within 100 ms are batched), only the changed files are read ' +
        'again and only the difference is applied to the running state; the controllers converge ' +
        'and the view is redrawn. Invalid manifests after an edit are shown and nothing of them ' +
        'is applied: the last good state keeps running. A change of the config, or of a script ' +
        'next to it, or of the set of types restarts the controllers on a fresh state. Each ' +
        'round converges on a simulated clock, moved to wall time between rounds: backoffs and ' +
        'requeues cost no wall time, and a round shows where the controllers settle. On a ' +
        'terminal the view is redrawn in place; otherwise one block is printed per round. q or ' +
        'Ctrl-C quits.',
    );
  addProjectOptions(addPathArguments(command))
    .option('-n, --namespace <namespace>', 'show only this namespace')
    .option('-t, --type <type>', 'show only this type (any alias)')
    .addHelpText(
      'after',
      `
Examples:
  cosi watch -f fixtures/vm-network
  cosi watch -f manifests/ -t vm
  cosi watch -f manifests/ --config ./cosi.config.ts > rounds.log   (one block per round)

Exit codes: 0 after q or Ctrl-C, 2 usage or config error at start.`,
    );
  return command;
}

/** Runs until interrupted; the files are watched with `watchFiles` (chokidar by default). */
export async function watch(
  io: CliIo,
  paths: string[],
  flags: WatchFlags,
  watchFiles: WatchFiles = watchWithChokidar,
): Promise<CommandResult> {
  if ([...(flags.file ?? []), ...paths].includes('-')) {
    throw new CliError(
      'watch reads files it can watch: -f - (the standard input) is for one-shot commands',
    );
  }
  const options = await toRunOptions(flags, io, { paths });
  const onInterrupt = io.onInterrupt;
  if (onInterrupt === undefined) {
    throw new CliError('watch runs until interrupted, and this process cannot be');
  }
  const view = createWatchView(io, {
    colors: createColors(useColor(io, flags.color)),
    query: {
      ...(flags.type !== undefined ? { type: flags.type } : {}),
      ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
    },
    stable: flags.stable === true,
    interactive: io.isTTY,
  });
  const session = await startWatchSession({
    ...options,
    watch: watchFiles,
    onRound: (round) => view.show(round),
  });
  const unsubscribe = onInterrupt(() => void session.close());
  await session.closed;
  unsubscribe();
  return { exitCode: EXIT.ok };
}
