/**
 * The hash of the CLI's script (`dist/cli/cli-script.cjs`), filled in by the build
 * (`scripts/build.mjs`) when it bundles the script's runners (the process's entry,
 * `cli-entry.ts`, and the worker's, `cli-worker.ts`): they key the script's code cache by it
 * (see `runCachedScript`'s `contentHash`), instead of loading a hash function and reading the
 * 2 MB through it on every command. `undefined` where the build did not fill it in: the
 * content is then hashed.
 */
export const CLI_SCRIPT_HASH: string | undefined = undefined;

/** The same for the main thread's supervisor script (`dist/cli/cli-supervisor.cjs`). */
export const SUPERVISOR_SCRIPT_HASH: string | undefined = undefined;
