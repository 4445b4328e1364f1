import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { ConfigError, findConfig, loadConfig, type LoadedConfig } from '../loaders/load-config.js';
import { displayPath } from './display-path.js';

/** Where to look for the project's config. */
export interface ConfigLocation {
  /** Manifest paths (`-f`): the config is looked for in the first one, when it is a directory. */
  readonly files: readonly string[];
  /** An explicit config file (`--config`). */
  readonly config?: string;
  readonly cwd: string;
}

/** The engine module, handed to configs as `cosi`. Imported lazily to keep the barrel acyclic. */
const engineModule = (): Promise<unknown> => import('../index.js');

/**
 * Finds (`--config`, or `cosi.config.*` in the first `-f` directory) and loads the config: a
 * fresh evaluation every time, so `watch` can call it again after an edit.
 *
 * @throws ConfigError, its paths as the user would write them, when the config cannot be found
 *   or loaded.
 */
export async function loadProjectConfig(
  location: ConfigLocation,
): Promise<LoadedConfig | undefined> {
  const file = await findConfigFile(location);
  if (!file) return undefined;
  try {
    return await loadConfig(file, { modules: { cosi: await engineModule() } });
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new ConfigError(displayPath(location.cwd, file), error.reason, { cause: error.cause });
    }
    throw error;
  }
}

async function findConfigFile(location: ConfigLocation): Promise<string | undefined> {
  if (location.config !== undefined) {
    const file = path.resolve(location.cwd, location.config);
    try {
      await stat(file);
    } catch {
      throw new ConfigError(`--config: ${location.config}`, 'no such file');
    }
    return file;
  }
  const first = location.files[0];
  if (first === undefined) return undefined;
  const dir = path.resolve(location.cwd, first);
  try {
    if (!(await stat(dir)).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  return findConfig(dir);
}
