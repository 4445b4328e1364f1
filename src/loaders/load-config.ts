import { access } from 'node:fs/promises';
import * as path from 'node:path';
import { createJiti } from 'jiti';
import { normalizeDefinition, type ProjectConfig } from './project-config.js';
import type { ResourceDefinition } from '../engine/resource/definition.js';

/** File names looked for in a manifest directory, in this order. */
export const CONFIG_FILE_NAMES = [
  'cosi.config.ts',
  'cosi.config.mts',
  'cosi.config.js',
  'cosi.config.mjs',
];

/** A config that could not be loaded: the file and the cause. A usage error for the CLI. */
export class ConfigError extends Error {
  readonly code = 'config';
  constructor(
    readonly file: string,
    /** What is wrong, without the file. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}`, options);
    this.name = 'ConfigError';
  }
}

/** A loaded config, its definitions validated. */
export interface LoadedConfig {
  readonly file: string;
  readonly config: ProjectConfig;
  readonly definitions: ResourceDefinition[];
}

/** The first config file in `dir`, if any. */
export async function findConfig(dir: string): Promise<string | undefined> {
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = path.join(dir, name);
    try {
      await access(candidate);
      return candidate;
    } catch {
      // not there: try the next name
    }
  }
  return undefined;
}

export interface LoadConfigOptions {
  /**
   * Modules the config's imports resolve to, whether or not the project has them installed:
   * the CLI passes `{ cosi: <the running engine> }` so that controllers and the engine share
   * one copy of every class.
   */
  readonly modules?: Readonly<Record<string, unknown>>;
}

/**
 * Loads `cosi.config.ts` (or `.mts`, `.js`, `.mjs`) without a build step.
 * @throws ConfigError with the file and the cause.
 */
export async function loadConfig(
  file: string,
  options: LoadConfigOptions = {},
): Promise<LoadedConfig> {
  const jiti = createJiti(file, {
    virtualModules: { ...options.modules },
    // A fresh evaluation on every load (watch mode re-loads an edited config); transpiled output
    // is cached on disk, keyed by content.
    moduleCache: false,
    interopDefault: true,
  });
  let loaded: unknown;
  try {
    loaded = await jiti.import(file, { default: true });
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new ConfigError(file, `cannot load the config: ${cause}`, { cause: error });
  }
  const config = await Promise.resolve(loaded);
  if (typeof config !== 'object' || config === null) {
    throw new ConfigError(
      file,
      'the config must export an object (use `export default defineConfig({ ... })`)',
    );
  }
  const project = config as ProjectConfig;
  checkArray(file, project.definitions, 'definitions');
  checkArray(file, project.controllers, 'controllers');
  if (project.setup !== undefined && typeof project.setup !== 'function') {
    throw new ConfigError(file, '`setup` must be a function');
  }
  const definitions: ResourceDefinition[] = [];
  for (const [i, definition] of (project.definitions ?? []).entries()) {
    try {
      definitions.push(normalizeDefinition(definition));
    } catch (error) {
      throw new ConfigError(file, `definitions[${i}]: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return { file, config: project, definitions };
}

function checkArray(file: string, value: unknown, name: string): void {
  if (value !== undefined && !Array.isArray(value)) {
    throw new ConfigError(file, `\`${name}\` must be an array`);
  }
}
