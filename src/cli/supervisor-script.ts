/**
 * The main thread's script for a command run once in a worker (`check`, `apply`, `get`,
 * `graph`, `explain`, `report`: see `runsOnceInWorker`): the process's entry (`cli-entry.ts`)
 * runs it instead of the whole CLI's script (`cli-script.ts`), which the worker runs. This thread
 * only starts the worker, parses the manifests ahead and supervises (`main.ts`'s first branch);
 * the build makes it a script of its own (`dist/cli/cli-supervisor.cjs`) with the commands'
 * modules and the command table left out (`scripts/build.mjs`, `supervisorOnly`). V8 reads the
 * whole top level of a script at every start, every module's declarations, however few of them
 * run: the whole script's is some 660 KB of code cache, this one's a fifth of it.
 *
 * The one part of a command it may need is `check`'s renderer, for a check stopped by its
 * project's code (see `reportFault`): that comes from the whole script, run on this thread then
 * (`whole-script-check.ts`).
 */
export { main } from './main.js';
export { heapGrowthLimited } from './heap-growth.js';
export { modulesRun } from './modules-run.js';
