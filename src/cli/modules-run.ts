/**
 * How many modules of the CLI's script (`dist/cli/cli-script.cjs`) this thread has initialized:
 * the build counts them where esbuild's `__esm` helper initializes one (`scripts/build.mjs`).
 * What a code cache made by this run covers, roughly (see `CachedScript.saveCache`).
 */
declare const __cosiModulesRun: number | undefined;

/** The count, or 0 where the code does not run from the script (the sources, the ES modules). */
export function modulesRun(): number {
  return typeof __cosiModulesRun === 'number' ? __cosiModulesRun : 0;
}
