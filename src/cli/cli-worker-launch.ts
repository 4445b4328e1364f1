import { fileURLToPath } from 'node:url';
import { launchProjectWorker, workerHeapLimit, type LaunchedWorker } from '../app/worker-launch.js';
import type { CliWorkerData } from './worker-messages.js';
import { runsOnceInWorker } from './worker-command-names.js';

/** What the worker is told of the process it runs a command for. */
export type CliWorkerProcess = Pick<
  CliWorkerData,
  'isTTY' | 'hasStdin' | 'screen' | 'knownFaults' | 'continues'
>;

/**
 * Starts the worker a project command runs in (see `cli-worker-body.ts`): its entry and its
 * script are the package's files, found by `packageFile` (the installed package's, or those
 * beside `bin/cosi.js`); its data is `argv` and what `facts` says of the process.
 */
export function launchCliWorker(
  argv: readonly string[],
  facts: CliWorkerProcess,
  packageFile: (relative: string) => URL,
): LaunchedWorker {
  const data: CliWorkerData = {
    script: fileURLToPath(packageFile('dist/cli/cli-script.cjs')),
    argv,
    ...facts,
    // A command run once: the main thread parses its manifests while this worker starts (`main`);
    // not for a check run again after a fault (see `superviseWorkerOnce`).
    ...(runsOnceInWorker(argv) && facts.knownFaults === undefined ? { parsesAhead: true } : {}),
  };
  return launchProjectWorker(
    packageFile('dist/cli/cli-worker.cjs'),
    data,
    workerHeapLimit(process.env),
  );
}
