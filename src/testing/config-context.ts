import * as path from 'node:path';
import { withConfigManifests } from '../app/config-manifests.js';
import type { ReadProjectOptions } from '../app/read-project-manifests.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import type { LoadInputOptions, ManifestInput } from './manifest-input.js';
import { CONFIG_OBJECT_NAME } from './test-config.js';

/** What of a test project's options its config may complete. */
interface ContextOptions {
  readonly cwd: string;
  readonly manifests?: ManifestInput;
  readonly kubernetesVersion?: string;
}

/** The options once the config has had its say. */
export type WithConfigContext<O> = O &
  Pick<LoadInputOptions, 'ignore' | 'definitionPaths' | 'schemaLocations'>;

/**
 * A test project as its config describes it, as every command and a `cosi test` scenario read
 * one: given no `manifests`, those the config names (relative to the config's directory; an
 * object config's, to `cwd`); the config's `ignore` patterns, `definitionFiles`,
 * `schemaLocations` and `kubernetesVersion` unless the options give their own.
 */
export function withConfigContext<O extends ContextOptions>(
  options: O,
  config: LoadedConfig | undefined,
): WithConfigContext<O> {
  if (config === undefined) return options;
  const { cwd } = options;
  const located =
    config.file === CONFIG_OBJECT_NAME
      ? { ...config, file: path.join(cwd, CONFIG_OBJECT_NAME) }
      : config;
  const given: ReadProjectOptions = { files: [], cwd };
  const context = withConfigManifests(given, located);
  const configured = context.files.map((file) => path.resolve(cwd, file));
  const kubernetesVersion = options.kubernetesVersion ?? config.config.kubernetesVersion;
  return {
    ...options,
    ...(options.manifests === undefined && configured.length > 0 ? { manifests: configured } : {}),
    ...(context.ignore ? { ignore: context.ignore } : {}),
    ...(context.definitionPaths ? { definitionPaths: context.definitionPaths } : {}),
    ...(context.schemaLocations ? { schemaLocations: context.schemaLocations } : {}),
    ...(kubernetesVersion === undefined ? {} : { kubernetesVersion }),
  };
}
