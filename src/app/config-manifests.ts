import * as path from 'node:path';
import type { LoadedConfig } from '../loaders/load-config.js';
import { parseKubernetesRelease } from '../loaders/kubernetes/kubernetes-release.js';
import type { ReadProjectOptions } from './read-project-manifests.js';
import { nearbyConfigHint } from './nearby-config.js';

/** What a command asks of its manifests beside the paths it was given. */
export interface ManifestsRequirement {
  /**
   * The command needs manifests: given none, and the config naming none either, it stops with a
   * {@link MissingManifestsError}.
   */
  readonly requireManifests?: boolean;
}

/** A command that needs manifests was given none, and the config names none. A usage error. */
export class MissingManifestsError extends Error {
  constructor(config: LoadedConfig | undefined, cwd: string) {
    const where = config
      ? `, or name them in ${path.relative(cwd, config.file) || config.file} (manifests: ['manifests/'])`
      : `, or run it in a project whose cosi.config.ts names them (manifests: [...]); cosi init starts one${nearbyConfigHint(cwd)}`;
    super(`no manifests given: pass -f <path> (a file or a directory)${where}`);
    this.name = 'MissingManifestsError';
  }
}

/**
 * The project as the config describes it, under what the command line says: a command given no
 * manifest paths reads those the config names (`manifests`, relative to the config's directory);
 * `definitionFiles`, `schemaLocations` and `kubernetesVersion` count when the command line gives
 * none; the config's `ignore` patterns join `--ignore`'s. So `cosi check` inside a project needs
 * no `-f`, as kubectl needs no file for its context, and `-f` overrides.
 *
 * @throws MissingManifestsError when manifests are required and neither gives any.
 */
export function withConfigManifests<O extends ReadProjectOptions & ManifestsRequirement>(
  options: O,
  config: LoadedConfig | undefined,
): O {
  const project = config?.config;
  const fromConfig = (paths: readonly string[] | undefined): string[] | undefined => {
    if (config === undefined || paths === undefined) return undefined;
    const dir = path.dirname(config.file);
    return paths.map((p) => path.relative(options.cwd, path.resolve(dir, p)) || '.');
  };
  const manifests = options.files.length === 0 ? fromConfig(project?.manifests) : undefined;
  const definitionPaths =
    options.definitionPaths === undefined ? fromConfig(project?.definitionFiles) : undefined;
  const configLocations = project?.schemaLocations;
  const schemaLocations =
    options.schemaLocations === undefined && configLocations !== undefined
      ? // `default` names no path, and a URL is no path: neither is made relative to the config.
        configLocations
          .filter((l) => l !== 'default')
          .map((l) => (/^https?:\/\//i.test(l) ? l : (fromConfig([l])?.[0] ?? l)))
      : undefined;
  const release = project?.kubernetesVersion;
  const resolved: O = {
    ...options,
    ...(manifests !== undefined ? { files: manifests } : {}),
    ...(definitionPaths !== undefined ? { definitionPaths } : {}),
    ...(schemaLocations !== undefined ? { schemaLocations } : {}),
    ...(project?.ignore !== undefined
      ? { ignore: [...project.ignore, ...(options.ignore ?? [])] }
      : {}),
    ...(options.kubernetesVersion === undefined && release !== undefined
      ? { kubernetesVersion: parseKubernetesRelease(release) }
      : {}),
  };
  if (resolved.files.length === 0 && options.requireManifests === true) {
    throw new MissingManifestsError(config, options.cwd);
  }
  return resolved;
}
