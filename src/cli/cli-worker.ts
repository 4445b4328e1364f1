/**
 * The entry of the worker thread a project command runs in (see `supervised-cli.ts`). What it
 * does is `cli-worker-body.ts`, built as one script (`dist/cli/cli-worker-body.cjs`) and run
 * with a V8 code cache (see `cached-script.ts`): the worker starts in every such command, and
 * compiling its code again each time was most of what it cost before the project's own code ran.
 *
 * Built as a CommonJS script of its own (`dist/cli/cli-worker.cjs`), with nothing it imports
 * but Node's modules: a worker whose entry is an ES module first sets up Node's ES module
 * loader, a cost on every command that a CommonJS entry does not pay. The script's path comes
 * with the worker's data, and its content's hash from the build (see `worker-body-hash.ts`).
 */
import { workerData } from 'node:worker_threads';
import type * as CliWorkerBody from './cli-worker-body.js';
import { runCachedScript } from './cached-script.js';
import type { CliWorkerData } from './worker-messages.js';
import { WORKER_BODY_HASH } from './worker-body-hash.js';

const { data } = workerData as { data: CliWorkerData };
const body = runCachedScript<typeof CliWorkerBody>(data.script, {
  // The cache holds the functions a command ran: one per command.
  name: data.argv[0] ?? '',
  importModule: (specifier) => import(specifier),
  ...(WORKER_BODY_HASH === undefined ? {} : { contentHash: WORKER_BODY_HASH }),
});
// A rejection is the worker's uncaught error, as a rejected top-level await of a module's is.
void body.exports.runCliWorker({ finished: () => body.saveCache() });
