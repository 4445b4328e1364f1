/**
 * The hash of the worker's script (`dist/cli/cli-worker-body.cjs`), filled in by the build
 * (`scripts/build.mjs`) when it bundles the worker's entry: the entry then keys the script's
 * code cache by it (see `runCachedScript`'s `contentHash`), instead of loading a hash function
 * and reading the 2 MB through it on every command. `undefined` where the build did not fill
 * it in: the content is then hashed.
 */
export const WORKER_BODY_HASH: string | undefined = undefined;
