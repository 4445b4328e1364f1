/**
 * The entry of the worker thread a project command runs in (see `supervised-cli.ts`). What it
 * does is `cli-worker-body.ts`, part of the CLI's script (`dist/cli/cli-script.cjs`, see
 * `cli-script.ts`), run with a V8 code cache (see `cached-script.ts`): the worker starts in every
 * such command, and compiling its code again each time was most of what it cost before the
 * project's own code ran.
 *
 * Built as a CommonJS script of its own (`dist/cli/cli-worker.cjs`), with nothing it imports
 * but Node's modules: a worker whose entry is an ES module first sets up Node's ES module
 * loader, a cost on every command that a CommonJS entry does not pay. The script's path comes
 * with the worker's data, and its content's hash from the build (see `cli-script-hash.ts`).
 */
import { workerData } from 'node:worker_threads';
import { runCachedScript } from './cached-script.js';
import type * as CliScript from './cli-script.js';
import { CLI_SCRIPT_HASH } from './cli-script-hash.js';
import type { CliWorkerData } from './worker-messages.js';

const { data } = workerData as { data: CliWorkerData };
const script = runCachedScript<typeof CliScript>(data.script, {
  // The cache holds the functions a command ran: one per command.
  name: data.argv[0] ?? '',
  importModule: (specifier) => import(specifier),
  ...(CLI_SCRIPT_HASH === undefined ? {} : { contentHash: CLI_SCRIPT_HASH }),
});
// A rejection is the worker's uncaught error, as a rejected top-level await of a module's is.
// Saved when the command is over: what it ran is in the cache (see `saveCache`'s reach).
void script.exports.runCliWorker({
  finished: () => script.saveCache(script.exports.modulesRun()),
  sideFile: (name) => script.sideFile(name),
});
