/**
 * The entry of the worker thread a project command runs in (see `supervised-cli.ts`). What it
 * does is `cli-worker-body.ts`, built as one script (`dist/cli/cli-worker-body.cjs`) and run
 * with a V8 code cache (see `cached-script.ts`): the worker starts in every such command, and
 * compiling its code again each time was most of what it cost before the project's own code ran.
 */
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';
import { packageFile } from '../loaders/package-location.js';
import type * as CliWorkerBody from './cli-worker-body.js';
import { runCachedScript } from './cached-script.js';
import type { CliWorkerData } from './worker-messages.js';

const { data } = workerData as { data: CliWorkerData };
const body = runCachedScript<typeof CliWorkerBody>(
  fileURLToPath(packageFile('dist/cli/cli-worker-body.cjs')),
  {
    // The cache holds the functions a command ran: one per command.
    name: data.argv[0] ?? '',
    importModule: (specifier) => import(specifier),
  },
);
await body.exports.runCliWorker({ finished: () => body.saveCache() });
