#!/usr/bin/env node
// React (under the watch screen) runs its production build unless told otherwise: its development
// build checks every render and is several times slower. Set before the CLI (and React) loads.
process.env.NODE_ENV ??= 'production';
const args = process.argv.slice(2);
/** The commands that may run once in a worker (`runsOnceInWorker` in `worker-command-names.ts`). */
const ONCE_IN_WORKER = new Set(['apply', 'check', 'explain', 'get', 'graph', 'report']);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before the CLI loads: a version check (a script's, an installer's) costs a bare
  // node start. The same line commander prints for `cosi --version`.
  const { readFileSync } = await import('node:fs');
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${manifest.version}\n`);
} else if (ONCE_IN_WORKER.has(args[0])) {
  // A command that runs its project once in a worker (`check`, `apply`, ...) starts the worker
  // first, before the CLI loads: the worker's own start then runs beside the CLI's loading.
  // (`early-worker.cjs` says which lines do; the set above only spares the others its loading.)
  const { createRequire } = await import('node:module');
  const { launchEarlyWorker } = createRequire(import.meta.url)('../dist/cli/early-worker.cjs');
  await runCommand(launchEarlyWorker(args, new URL('../', import.meta.url)));
} else {
  await runCommand();
}

async function runCommand(launched) {
  const { main } = await import('../dist/cli/main.js');
  const code = await main(args, launched);
  process.exitCode = code;
  // The command is over. A timer or socket a project's code left open must not keep the process
  // alive: after a grace period for the output to drain, it ends with the command's exit code.
  // (Unref'd: a process with nothing left open ends at once, as before.)
  setTimeout(() => process.exit(code), 2000).unref();
}
