import { loadProjectConfig } from '../app/project-config.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import { normalizeDefinition, type ProjectConfig } from '../loaders/project-config.js';

/**
 * A test project's config: a path (a config file, or a directory holding one), a config object
 * (what `defineConfig` returns), or `false` for none. Omitted, it is looked for as the CLI looks
 * for it: from the manifest paths, then the working directory, upwards.
 */
export type TestConfig = string | ProjectConfig | false;

/** What an object config is named in messages. */
export const CONFIG_OBJECT_NAME = '<config object>';

/** @throws ConfigError when a config file cannot be found or loaded. */
export async function resolveTestConfig(
  config: TestConfig | undefined,
  { cwd, paths }: { readonly cwd: string; readonly paths: readonly string[] },
): Promise<LoadedConfig | undefined> {
  if (config === false) return undefined;
  if (typeof config === 'string') {
    return loadProjectConfig({ files: [], config, cwd, configOption: 'config' });
  }
  // As the CLI: from the manifest paths, then the working directory, upwards (manifests given as
  // text or objects, or none, have no path: the working directory's project's config).
  if (config === undefined) return loadProjectConfig({ files: paths, cwd });
  return {
    file: CONFIG_OBJECT_NAME,
    config,
    definitions: (config.definitions ?? []).map(normalizeDefinition),
  };
}
