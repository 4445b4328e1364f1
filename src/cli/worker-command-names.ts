/**
 * Which command lines run their command in a worker thread, told from the line alone: read
 * before anything else loads (see `early-worker.ts`), so this module imports nothing. The
 * commands' definitions are `worker-commands.ts`'s.
 */

/**
 * The commands whose project runs in a worker thread: those that run a project once, and `watch`
 * (see `worker-commands.ts`).
 */
export const WORKER_COMMAND_NAMES: ReadonlySet<string> = new Set([
  'apply',
  'check',
  'get',
  'graph',
  'explain',
  'report',
  'watch',
]);

/** Whether `argv` runs a command that may run in a worker thread. */
export function runsInWorker(argv: readonly string[]): boolean {
  return argv[0] !== undefined && WORKER_COMMAND_NAMES.has(argv[0]);
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
