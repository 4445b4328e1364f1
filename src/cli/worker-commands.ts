import type { Command } from 'commander';

/**
 * The commands that run a project once and end, each run in a worker thread (see
 * `runCliInWorker`), with their definitions, imported when needed. `watch` and `run` stay
 * in the main thread for now: their terminal, signals and long-lived state are there.
 */
export const WORKER_COMMANDS: ReadonlyMap<string, () => Promise<() => Command>> = new Map([
  ['apply', async () => (await import('./commands/apply-definition.js')).defineApply],
  ['check', async () => (await import('./commands/check-definition.js')).defineCheck],
  ['get', async () => (await import('./commands/get-definition.js')).defineGet],
  ['graph', async () => (await import('./commands/graph-definition.js')).defineGraph],
  ['explain', async () => (await import('./commands/explain-definition.js')).defineExplain],
]);

/** Whether `argv` runs a command that `runCliInWorker` runs in a worker thread. */
export function runsInWorker(argv: readonly string[]): boolean {
  return argv[0] !== undefined && WORKER_COMMANDS.has(argv[0]);
}
