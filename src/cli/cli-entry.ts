/**
 * What `bin/cosi.js` runs for every command but `--version`: it starts a once-command's worker
 * first (`check`, `apply`, ...: see `early-worker.ts`), then runs the CLI's script
 * (`dist/cli/cli-script.cjs`, see `cli-script.ts`) with a V8 code cache and its `main`; for a
 * command that runs once in the worker, the supervisor's script instead, the CLI's without the
 * commands (`dist/cli/cli-supervisor.cjs`, see `supervisor-script.ts`).
 *
 * Built as a CommonJS script of its own (`dist/cli/cli-entry.cjs`) with Node's modules only, as
 * the worker's entry is: loaded with `require` from a CommonJS `bin/cosi.js`, a command that
 * needs no ES module (`--help`, `check`) never sets up Node's ES module loader.
 */
import { fileURLToPath } from 'node:url';
import { runCachedScript, scriptSideFile } from './cached-script.js';
import type * as SupervisorScript from './supervisor-script.js';
import { CLI_SCRIPT_HASH, SUPERVISOR_SCRIPT_HASH } from './cli-script-hash.js';
import { mainCacheName } from './command-names.js';
import { launchEarlyWorker } from './early-worker.js';
import { isHelpRequest, openHelpMemo, type HelpOutput } from './help-memo.js';

/**
 * Runs the command line `argv` (the arguments after `cosi`); resolves to its exit code. `root` is
 * the URL of the package's root (with its `dist/`).
 */
export async function runCosi(argv: readonly string[], root: URL): Promise<number> {
  const file = fileURLToPath(new URL('dist/cli/cli-script.cjs', root));
  // Help, printed before as it would be printed now: without loading the CLI (`help-memo.ts`).
  const memo =
    CLI_SCRIPT_HASH !== undefined && isHelpRequest(argv)
      ? openHelpMemo(argv, helpOutput(), scriptSideFile(file, CLI_SCRIPT_HASH, 'help.json'))
      : undefined;
  if (memo?.text !== undefined) {
    process.stdout.write(memo.text);
    return 0;
  }
  const launched = launchEarlyWorker(argv, root);
  // With a worker started, this thread only supervises it: the script without the commands.
  const supervising = launched !== undefined;
  const contentHash = supervising ? SUPERVISOR_SCRIPT_HASH : CLI_SCRIPT_HASH;
  const script = runCachedScript<typeof SupervisorScript>(
    supervising ? fileURLToPath(new URL('dist/cli/cli-supervisor.cjs', root)) : file,
    {
      // The cache holds the functions a command ran on this thread: one per command (the
      // worker's are the bare names).
      name: mainCacheName(argv),
      // A package left out of the script, or the watch screen (`./ui/watch-screen.js`, resolved
      // from here, `dist/cli/`, where the script is too).
      importModule: (specifier) => import(specifier),
      ...(contentHash === undefined ? {} : { contentHash }),
    },
  );
  // What the command printed, when it is a help request to keep.
  const said = { stdout: '', onStderr: false };
  const code = await script.exports.main(
    argv,
    launched,
    memo && {
      stdout: (text) => (said.stdout += text),
      stderr: () => (said.onStderr = true),
    },
  );
  if (memo !== undefined && code === 0 && !said.onStderr && said.stdout !== '') {
    memo.save(said.stdout);
  }
  // Saved once the command has run, with every function it compiled; not after a change of V8's
  // flags, which would make V8 refuse it in the next run.
  if (!script.exports.heapGrowthLimited()) script.saveCache(script.exports.modulesRun());
  return code;
}

/** What commander's help reads of this process's stdout and environment. */
function helpOutput(): HelpOutput {
  const stdout = process.stdout;
  // (Node's types say a boolean: it is undefined when stdout is not a terminal.)
  const isTTY = (stdout.isTTY as boolean | undefined) ?? false;
  return {
    isTTY,
    columns: isTTY ? stdout.columns : undefined,
    hasColors: isTTY && stdout.hasColors(),
    env: process.env,
  };
}
