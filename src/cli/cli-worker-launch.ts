import { fileURLToPath } from 'node:url';
import { launchProjectWorker, workerHeapLimit, type LaunchedWorker } from '../app/worker-launch.js';
import type { CliWorkerData } from './worker-messages.js';

/** What the worker is told of the process it runs a command for. */
export type CliWorkerProcess = Pick<CliWorkerData, 'isTTY' | 'hasStdin' | 'screen'>;

/**
 * Starts the worker a project command runs in (see `cli-worker-body.ts`): its entry and its
 * script are in `dist`, the URL of the package's `dist/cli/`; its data is `argv` and what `facts` says of the process.
 */
export function launchCliWorker(
  argv: readonly string[],
  facts: CliWorkerProcess,
  dist: URL,
): LaunchedWorker {
  const data: CliWorkerData = {
    script: fileURLToPath(new URL('cli-worker-body.cjs', dist)),
    argv,
    ...facts,
  };
  return launchProjectWorker(new URL('cli-worker.cjs', dist), data, workerHeapLimit(process.env));
}
