import { createRuntime } from '../engine/runtime/runtime.js';
import { createInMemoryState } from '../engine/state/in-memory-state.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import { registerProjectControllers } from './project.js';
import type { UserCodeMonitor } from './user-code-site.js';

/**
 * The names of every controller a config registers, its `setup`'s too (the builder's controllers
 * are known only once `setup` ran), sorted. `setup` runs on a scratch runtime over an empty
 * in-memory state, never started: nothing reconciles. `cosi run` needs the names before it may
 * lead, and `setup` runs on the real runtime only once it leads.
 *
 * @throws ConfigError naming the config file when its controllers cannot be registered or its
 *   `setup` fails (or does not finish within `timeout`, wall ms).
 */
export async function projectControllerNames(
  config: LoadedConfig | undefined,
  cwd: string,
  timeout?: number,
  monitor?: UserCodeMonitor,
): Promise<string[]> {
  if (config === undefined) return [];
  const scratch = createRuntime(createInMemoryState());
  try {
    await registerProjectControllers(scratch, config, cwd, 'all', timeout, monitor);
    return scratch.controllerNames().sort();
  } finally {
    await scratch.stop();
  }
}
