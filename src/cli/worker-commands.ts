import type { Command } from 'commander';

/**
 * The commands whose project runs in a worker thread (see `runCliInWorker`), with their
 * definitions, imported when needed: those that run a project once, and `watch` unless it
 * draws its screen (ink stays on the main thread, with the terminal). `run` starts on the main
 * thread, which keeps its signals, endpoints and lease, and runs only its runtime in a worker
 * (see `serveInWorker`).
 */
export const WORKER_COMMANDS: ReadonlyMap<string, () => Promise<() => Command>> = new Map([
  ['apply', async () => (await import('./commands/apply-definition.js')).defineApply],
  ['check', async () => (await import('./commands/check-definition.js')).defineCheck],
  ['get', async () => (await import('./commands/get-definition.js')).defineGet],
  ['graph', async () => (await import('./commands/graph-definition.js')).defineGraph],
  ['explain', async () => (await import('./commands/explain-definition.js')).defineExplain],
  ['report', async () => (await import('./commands/report-definition.js')).defineReport],
  ['watch', async () => (await import('./commands/watch-definition.js')).defineWatch],
]);

/** Whether `argv` runs a command that may run in a worker thread. */
export function runsInWorker(argv: readonly string[]): boolean {
  return argv[0] !== undefined && WORKER_COMMANDS.has(argv[0]);
}

/**
 * Whether `argv` may be a `get -w` (`--watch`, or a cluster of short flags with `w`): only a
 * parse of the line says, but most lines are known not to be one without it.
 */
export function mayBeGetWatch(argv: readonly string[]): boolean {
  return argv[0] === 'get' && argv.some((arg) => arg === '--watch' || /^-[^-]*w/.test(arg));
}

/**
 * Whether `argv` runs its command once in a worker, its worker started before its line is
 * parsed: a worker command, but not `watch` nor what may be a `get -w` (each parsed first).
 */
export function runsOnceInWorker(argv: readonly string[]): boolean {
  return runsInWorker(argv) && argv[0] !== 'watch' && !mayBeGetWatch(argv);
}
