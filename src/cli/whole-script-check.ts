/**
 * `check`'s renderer from the whole CLI's script (`dist/cli/cli-script.cjs`), run on this thread
 * when first called: what the main thread's supervisor script (`supervisor-script.ts`) has in
 * place of `./commands/check.js`, which it leaves out (the build maps the one to the other). It
 * is called only to report a check stopped by its project's code (see `reportFault`).
 */
import { fileURLToPath } from 'node:url';
import { runCachedScript } from './cached-script.js';
import type * as CliScript from './cli-script.js';
import { CLI_SCRIPT_HASH } from './cli-script-hash.js';

/** `commands/check.ts`'s `renderCheck`, from the whole script. */
export async function renderCheck(
  ...args: Parameters<typeof CliScript.renderCheck>
): Promise<void> {
  const script = runCachedScript<typeof CliScript>(
    fileURLToPath(new URL('./cli-script.cjs', import.meta.url)),
    {
      name: 'main-check-fault',
      importModule: (specifier) => import(specifier),
      ...(CLI_SCRIPT_HASH === undefined ? {} : { contentHash: CLI_SCRIPT_HASH }),
    },
  );
  await script.exports.renderCheck(...args);
  script.saveCache(script.exports.modulesRun());
}
