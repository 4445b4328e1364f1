import type { Command } from 'commander';

/**
 * The commands whose project runs in a worker thread (see `runCliInWorker`), with their
 * definitions, imported when needed (their names alone are `WORKER_COMMAND_NAMES`, read before
 * this module loads): those that run a project once, and `watch` unless it
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
