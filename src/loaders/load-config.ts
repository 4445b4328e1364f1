import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { createJiti } from 'jiti';
import { didYouMean } from './did-you-mean.js';
import {
  normalizeDefinition,
  type ConfigDefinition,
  type ProjectConfig,
} from './project-config.js';
import type { ResourceDefinition } from '../engine/resource/definition.js';

/** File names looked for in a manifest directory, in this order. */
export const CONFIG_FILE_NAMES = [
  'cosi.config.ts',
  'cosi.config.mts',
  'cosi.config.js',
  'cosi.config.mjs',
];

/**
 * A config that could not be loaded, or that is wrong: the file and every problem found, one
 * line each. A usage error for the CLI.
 */
export class ConfigError extends Error {
  readonly code = 'config';
  /** What is wrong, without the file: one entry per problem. */
  readonly problems: readonly string[];

  constructor(
    readonly file: string,
    problems: string | readonly string[],
    options?: { cause?: unknown },
  ) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.map((problem) => `${file}: ${problem}`).join('\n'), options);
    this.problems = list;
    this.name = 'ConfigError';
  }

  /** The same error, its file named as given (a display path, say). */
  withFile(file: string): ConfigError {
    return new ConfigError(file, this.problems, { cause: this.cause });
  }
}

/** The keys a config object may have. */
const CONFIG_KEYS = ['definitions', 'controllers', 'setup'] as const;

/** A loaded config, its definitions validated. */
export interface LoadedConfig {
  readonly file: string;
  readonly config: ProjectConfig;
  readonly definitions: ResourceDefinition[];
}

/**
 * The first config file in `dir`, if any. Only a regular file counts: a FIFO or a device of that
 * name would block the read forever.
 */
export async function findConfig(dir: string): Promise<string | undefined> {
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = path.join(dir, name);
    try {
      if ((await stat(candidate)).isFile()) return candidate;
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
    interopDefault: false,
  });
  let namespace: unknown;
  try {
    namespace = await jiti.import(file);
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new ConfigError(file, `cannot load the config: ${cause}`, { cause: error });
  }
  if (typeof namespace !== 'object' || namespace === null || !('default' in namespace)) {
    throw new ConfigError(
      file,
      'the config has no default export (write `export default defineConfig({ ... })`)',
    );
  }
  const config: unknown = await Promise.resolve(namespace.default);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new ConfigError(
      file,
      `the default export must be an object, not ${describeValue(config)} (write \`export default defineConfig({ ... })\`)`,
    );
  }
  const problems: string[] = [];
  const definitions = checkConfig(config as Record<string, unknown>, problems);
  if (problems.length > 0) throw new ConfigError(file, problems);
  return { file, config: config, definitions };
}

/** Every problem of a config object, at once; its definitions, normalised, when it has none. */
function checkConfig(config: Record<string, unknown>, problems: string[]): ResourceDefinition[] {
  for (const key of Object.keys(config)) {
    if ((CONFIG_KEYS as readonly string[]).includes(key)) continue;
    const guess = didYouMean(key, CONFIG_KEYS);
    problems.push(
      `unknown key \`${key}\`${guess ? ` (did you mean \`${guess}\`?)` : ''}; a config has ${CONFIG_KEYS.map((k) => `\`${k}\``).join(', ')}`,
    );
  }
  const definitions: ResourceDefinition[] = [];
  for (const [i, definition] of arrayEntries(config, 'definitions', problems)) {
    try {
      definitions.push(normalizeDefinition(definition as ConfigDefinition));
    } catch (error) {
      problems.push(`definitions[${i}]: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const [i, controller] of arrayEntries(config, 'controllers', problems)) {
    if (!isController(controller)) {
      problems.push(
        `controllers[${i}]: expected a controller (an object with a \`name\` and \`run\` or \`reconcile\`), got ${describeValue(controller)}`,
      );
    }
  }
  if (config.setup !== undefined && typeof config.setup !== 'function') {
    problems.push(`\`setup\` must be a function, not ${describeValue(config.setup)}`);
  }
  return definitions;
}

/** The entries of an optional array key; a problem when it is there but not an array. */
function arrayEntries(
  config: Record<string, unknown>,
  key: string,
  problems: string[],
): [number, unknown][] {
  const value = config[key];
  if (value === undefined) return [];
  if (Array.isArray(value)) return [...(value as unknown[]).entries()];
  problems.push(`\`${key}\` must be an array, not ${describeValue(value)}`);
  return [];
}

function isController(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.name === 'string' && (typeof c.run === 'function' || typeof c.reconcile === 'function')
  );
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object'
    ? 'an object'
    : typeof value === 'undefined'
      ? 'undefined'
      : `a ${typeof value}`;
}
