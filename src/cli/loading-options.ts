/**
 * The flags that say how a project's manifests are read (`--ignore`, `--definitions`,
 * `--schema-location`, `--schema-cache`, `--kubernetes-version`, `--config`): one definition, so
 * that every command that reads manifests (apply, check, get, graph, explain, report, watch, run,
 * diff) takes them, with the same help and the same checks.
 */
import type { Command } from 'commander';
import { collect, collectPaths } from './collect-flag.js';
import { CliError } from './exit-codes.js';
import type { ReadProjectOptions } from '../app/read-project-manifests.js';
import {
  DEFAULT_KUBERNETES_RELEASE,
  KUBERNETES_RELEASES,
  KubernetesReleaseError,
  parseKubernetesRelease,
  type KubernetesRelease,
} from '../loaders/kubernetes/kubernetes-release.js';
import {
  parseSchemaLocations,
  SchemaLocationError,
} from '../loaders/kubernetes/schema-location.js';

/** The loading flags, as commander gives them. */
export interface LoadingFlags {
  ignore?: string[];
  definitions?: string[];
  schemaLocation?: string[];
  schemaCache?: string;
  kubernetesVersion?: string;
  config?: string;
}

/** The loading flags, checked, as the readers of a project take them. */
export type LoadingOptions = Pick<
  ReadProjectOptions,
  'ignore' | 'definitionPaths' | 'schemaLocations' | 'schemaCache' | 'kubernetesVersion'
> & { readonly config?: string };

/**
 * Adds `--ignore`, `--definitions`, `--schema-location`, `--schema-cache`,
 * `--kubernetes-version` and `--config`.
 */
export function addLoadingOptions(command: Command): Command {
  return command
    .option(
      '--ignore <pattern>',
      'skip what this .gitignore-style pattern matches while walking directories (repeatable; also read from .cosiignore)',
      collect,
    )
    .option(
      '--definitions <path>',
      "read only the definitions (CRDs, ResourceDefinitions) of these files or directories, such as a chart's crds/ (repeatable, or comma-separated)",
      collectPaths,
    )
    .option(
      '--schema-location <template>',
      "JSON Schemas of kinds no CRD or built-in kind defines, as kubeconform's -schema-location: a path or URL template such as 'schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' (repeatable; tried in order)",
      collect,
    )
    .option(
      '--schema-cache <dir>',
      "keep the schemas downloaded from --schema-location URLs in this directory, and read them from it in later runs (kubeconform's -cache)",
    )
    .option(
      '--kubernetes-version <version>',
      `the Kubernetes release whose built-in kinds (ConfigMap, Deployment, ...) manifests may use: ${KUBERNETES_RELEASES[0]} to ${DEFAULT_KUBERNETES_RELEASE} (default ${DEFAULT_KUBERNETES_RELEASE})`,
    )
    .option(
      '--config <path>',
      'project config, or a directory holding one (default: cosi.config.{ts,mts,js,mjs} next to the manifests or above the working directory)',
    );
}

/**
 * The loading flags given, checked.
 * @throws CliError (usage) for a `--schema-location` or `--kubernetes-version` cosi cannot use.
 */
export function toLoadingOptions(flags: LoadingFlags): LoadingOptions {
  return {
    ...(flags.ignore !== undefined ? { ignore: flags.ignore } : {}),
    ...(flags.definitions !== undefined ? { definitionPaths: flags.definitions } : {}),
    ...(flags.schemaLocation !== undefined
      ? { schemaLocations: checkedSchemaLocations(flags.schemaLocation) }
      : {}),
    ...(flags.schemaCache !== undefined ? { schemaCache: flags.schemaCache } : {}),
    ...(flags.kubernetesVersion !== undefined
      ? { kubernetesVersion: kubernetesRelease(flags.kubernetesVersion) }
      : {}),
    ...(flags.config !== undefined ? { config: flags.config } : {}),
  };
}

/**
 * `--schema-location` values cosi can use (parsed again where they are read); a usage error
 * otherwise.
 */
function checkedSchemaLocations(given: string[]): string[] {
  try {
    parseSchemaLocations(given);
  } catch (error) {
    if (error instanceof SchemaLocationError) throw new CliError(error.message);
    throw error;
  }
  return given;
}

/** `--kubernetes-version` as a release cosi has; a usage error otherwise. */
function kubernetesRelease(given: string): KubernetesRelease {
  try {
    return parseKubernetesRelease(given);
  } catch (error) {
    if (error instanceof KubernetesReleaseError)
      throw new CliError(`--kubernetes-version: ${error.message}`);
    throw error;
  }
}
