/**
 * The worker of a command that runs its project once (`check`, `apply`, ...), started by
 * `bin/cosi.js` (`cli-entry.ts`) before anything else loads: the worker's start, a Node start of its own, is most
 * of a small command's time, and it goes on on the other core while the main thread loads its
 * supervisor (`main.ts`, `supervised-cli.ts`), which then takes it over (see
 * `launchProjectWorker`).
 *
 * Part of the process's entry (`cli-entry.ts`, a CommonJS script with Node's modules only, as the
 * worker's entry is): it runs before the CLI's own script is read.
 */
import type { LaunchedWorker } from '../app/worker-launch.js';
import { launchCliWorker } from './cli-worker-launch.js';
import { runsOnceInWorker } from './worker-command-names.js';

/**
 * Starts the worker of `argv` when its command runs once in a worker (else `undefined`); `root`
 * is the URL of the package's root, where the worker's scripts are (in `dist/cli/`).
 */
export function launchEarlyWorker(argv: readonly string[], root: URL): LaunchedWorker | undefined {
  if (!runsOnceInWorker(argv)) return undefined;
  // As the process's io says them (`processIo`): stdout's terminal, and a stdin to read.
  return launchCliWorker(
    argv,
    // (Node's `tty` module loaded only here, for a command that starts a worker.)
    { isTTY: process.getBuiltinModule('node:tty').isatty(1), hasStdin: true },
    (relative) => new URL(relative, root),
  );
}
