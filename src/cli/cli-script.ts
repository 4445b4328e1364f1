/**
 * The CLI's code as one script: what the main thread runs (`main`) and what the worker a project
 * command runs in does (`runCliWorker`), with every module they import, the lazily imported ones
 * inlined. The build makes it one CommonJS script (`dist/cli/cli-script.cjs`), which the
 * process's entry (`cli-entry.ts`) and the worker's (`cli-worker.ts`) run with a V8 code cache
 * (see `cached-script.ts`): Node 20 has no compile cache for ES modules, and loading the main
 * thread's few dozen modules one by one through its ES module loader cost more than the whole
 * of `cosi --help`'s own work.
 *
 * The terminal UI of `watch` stays an ES module of its own (`dist/cli/ui/watch-screen.js`): ink
 * waits at its top level (a top-level `await`), which a `require` cannot.
 */
import type { CliWorkerHooks } from './cli-worker-body.js';
import type * as CheckCommand from './commands/check.js';

export { main } from './main.js';
export { heapGrowthLimited } from './heap-growth.js';
export { modulesRun } from './modules-run.js';

/**
 * The worker's part (see `cli-worker-body.ts`), imported when the worker runs it: the main thread
 * never evaluates its modules (the command table, the config loader).
 */
export async function runCliWorker(hooks: CliWorkerHooks = {}): Promise<void> {
  return (await import('./cli-worker-body.js')).runCliWorker(hooks);
}

/**
 * `check`'s renderer, imported when called: for the main thread's supervisor script, which
 * leaves the commands out and reports a check stopped by its project's code with it (see
 * `whole-script-check.ts`).
 */
export async function renderCheck(
  ...args: Parameters<typeof CheckCommand.renderCheck>
): Promise<void> {
  return (await import('./commands/check.js')).renderCheck(...args);
}
