import * as path from 'node:path';
import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import { ignorePatterns } from '../loaders/ignore-file.js';
import { loadPreviousRevision } from './previous-revision.js';
import type { PriorState } from '../loaders/cel/prior-state.js';
import { withChanges } from '../loaders/manifest-cache.js';
import { ManifestReader, type ReadResult } from '../loaders/manifest-reader.js';
import { readDefinitionPaths } from '../loaders/definition-paths.js';
import {
  DEFAULT_KUBERNETES_RELEASE,
  type KubernetesRelease,
} from '../loaders/kubernetes/kubernetes-release.js';
import { JsonSchemaKinds } from '../loaders/kubernetes/json-schema-kinds.js';
import { parseSchemaLocations } from '../loaders/kubernetes/schema-location.js';
import { schemaFileReader } from './schema-file-reader.js';
import { SchemaDownloads } from './schema-downloads.js';
import { displayPath } from './display-path.js';
import { explainMissingConfig, type ConfigLocation } from './project-config.js';

/** Reads again after downloads, at most: each round downloads what the one before asked for. */
const MAX_DOWNLOAD_ROUNDS = 3;

/** Where a project's manifests are and how they are read: what every command shares. */
export interface ReadProjectOptions extends ConfigLocation {
  /** `--ignore` patterns, beside those of the working directory's `.cosiignore`. */
  readonly ignore?: readonly string[];
  /** The standard input's bytes (or text), when a path is `-`. */
  readonly stdin?: Uint8Array | string;
  /** `--definitions` paths: only their definition documents (CRDs, cosi's) are read. */
  readonly definitionPaths?: readonly string[];
  /**
   * `--previous`: a directory or git revision holding the previous revision of the manifests;
   * CEL transition rules check each resource found there as an update of it.
   */
  readonly previous?: string;
  /**
   * `false`: the manifests keep their documents' positions only, not their files' text (see
   * `LoadManifestsOptions.positions`): for commands that never place a pointer inside a
   * manifest after the load. Default `true`.
   */
  readonly positions?: boolean;
  /**
   * Definitions known beside the config's (a test project's, which its manifests' CRDs and RGDs
   * defined, when a step applies more files): the manifests may use their types.
   */
  readonly knownDefinitions?: readonly ResourceDefinition[];
  /** `--skip-kinds`: documents of these kinds are neither checked nor loaded. */
  readonly skipKinds?: readonly string[];
  /** `--reject-kinds`: documents of these kinds are errors. */
  readonly rejectKinds?: readonly string[];
  /** `--ignore-unknown-kinds`: Kubernetes documents of an undefined kind are skipped. */
  readonly ignoreUnknownKinds?: boolean;
  /** The Kubernetes release whose built-in kinds the manifests may use. */
  readonly kubernetesVersion?: KubernetesRelease;
  /**
   * `--schema-location`: where the JSON Schemas of kinds nothing else defines are, as kubeconform
   * names them (`schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`).
   */
  readonly schemaLocations?: readonly string[];
  /** `--strict`: a schema location's `{{ .StrictSuffix }}` is `-strict`, as in kubeconform. */
  readonly strictSchemas?: boolean;
  /** `--schema-cache`: where schemas downloaded from URL locations are kept between runs. */
  readonly schemaCache?: string;
  /**
   * What the reads of several projects in one process share (`check --each`): the definitions of
   * the same `--definitions` paths and the catalog of the same schema locations, read (and their
   * schemas compiled) once for all.
   */
  readonly shared?: SharedProjectReads;
  /**
   * The paths checked as worlds of their own beside this one (`check --each`): a project of its
   * own met inside this one's paths that is one of them is left to its world, not set aside.
   */
  readonly checkedApart?: readonly string[];
}

/** Reads that projects read in one process share, each made once per key (see `shared`). */
export class SharedProjectReads {
  readonly #made = new Map<string, unknown>();

  /** What `make` gives, made the first time `key` is asked. */
  once<T>(key: string, make: () => T): T {
    if (!this.#made.has(key)) this.#made.set(key, make());
    return this.#made.get(key) as T;
  }
}

/** A project's manifest reader: the first read loads everything, a later one what changed. */
export interface ProjectReader {
  /**
   * Reads the manifests (only `paths` and what they hold, when given), with the `--definitions`
   * paths' findings and the missing config explained.
   */
  read(paths?: Iterable<string>, options?: { readonly contentOnly?: boolean }): Promise<ReadResult>;
}

/**
 * Opens the reader of a project's manifests: the `--definitions` paths (and the `--previous`
 * revision) are read once, here, and their definitions join the config's in every read. `prior`
 * is what CEL transition rules check an edit against instead of `--previous` (the watch loop's
 * record of its earlier rounds).
 *
 * @throws ConfigError when the previous revision cannot be read.
 */
export async function openProjectReader(
  options: ReadProjectOptions,
  config: LoadedConfig | undefined,
  prior?: PriorState,
): Promise<ProjectReader> {
  const ignore = await ignorePatterns({ ...options, paths: options.files });
  const shared = options.shared ?? new SharedProjectReads();
  const definitionPaths = options.definitionPaths ?? [];
  const extra = await shared.once(
    JSON.stringify(['definitions', options.cwd, definitionPaths, ignore]),
    () => readDefinitionPaths(definitionPaths, { cwd: options.cwd, ignore }),
  );
  const given = config?.definitions ?? [];
  const known = (options.knownDefinitions ?? []).filter(
    (d) => !given.some((g) => g.type === d.type),
  );
  const definitions = [...given, ...known, ...extra.definitions];
  const release = options.kubernetesVersion ?? DEFAULT_KUBERNETES_RELEASE;
  const locations = options.schemaLocations ?? [];
  const parsedLocations = parseSchemaLocations(locations);
  const downloads = parsedLocations.some((l) => l.remote)
    ? shared.once(
        JSON.stringify(['downloads', options.cwd, options.schemaCache]),
        () =>
          new SchemaDownloads({
            cwd: options.cwd,
            ...(options.schemaCache === undefined ? {} : { cacheDirectory: options.schemaCache }),
          }),
      )
    : undefined;
  const schemaKinds =
    locations.length === 0
      ? undefined
      : shared.once(
          JSON.stringify(['schemas', options.cwd, locations, release, options.strictSchemas]),
          () =>
            new JsonSchemaKinds({
              locations: parsedLocations,
              read: downloads?.reader() ?? schemaFileReader(options.cwd),
              release,
              strict: options.strictSchemas === true,
            }),
        );
  /** The manifests' reader, with the previous revision it checks transitions against. */
  const open = async (): Promise<ManifestReader> => {
    const previous =
      prior ??
      (options.previous === undefined
        ? undefined
        : await loadPreviousRevision(options.previous, {
            paths: options.files,
            cwd: options.cwd,
            definitions,
            ignore,
            ...(schemaKinds === undefined ? {} : { schemaKinds }),
            ...(options.kubernetesVersion === undefined
              ? {}
              : { kubernetesVersion: options.kubernetesVersion }),
          }));
    return new ManifestReader(options.files, {
      cwd: options.cwd,
      ignore,
      // A project of its own inside the paths is set aside, as this config is not its own; with
      // `--config` the user named one config for everything, and everything is walked.
      ...(options.config === undefined
        ? {
            setAsideProjects: {
              ...(config === undefined ? {} : { except: config.file }),
              apart: (options.checkedApart ?? []).map((p) => path.resolve(options.cwd, p)),
            },
          }
        : {}),
      ...(options.kubernetesVersion === undefined
        ? {}
        : { kubernetesVersion: options.kubernetesVersion }),
      ...(schemaKinds === undefined ? {} : { schemaKinds }),
      ...(options.skipKinds === undefined ? {} : { skipKinds: options.skipKinds }),
      ...(options.rejectKinds === undefined ? {} : { rejectKinds: options.rejectKinds }),
      ...(options.ignoreUnknownKinds === true ? { ignoreUnknownKinds: true } : {}),
      ...(previous === undefined ? {} : { previous }),
      ...(options.positions === false ? { positions: false } : {}),
      ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
      definitions,
      ...(config ? { definitionsSource: displayPath(options.cwd, config.file) } : {}),
      ...(extra.files.size > 0 ? { definitionFiles: extra.files } : {}),
    });
  };
  let reader = await open();
  /**
   * A read, and when it asked for schemas at URLs not downloaded yet, a download of them all and
   * a whole read again with a fresh reader: every document is checked with the kinds it found.
   * Each round downloads what the one before asked for; a few rounds at most (a schema found at
   * a URL asks for nothing more).
   */
  const readWithDownloads = async (
    paths: Iterable<string> | undefined,
    readOptions: { readonly contentOnly?: boolean } | undefined,
  ): Promise<ReadResult> => {
    const given = paths === undefined ? undefined : [...paths];
    let read = await reader.read(given, readOptions);
    for (let round = 0; downloads?.hasPending === true && round < MAX_DOWNLOAD_ROUNDS; round++) {
      await downloads.downloadPending();
      reader = await open();
      read = await reader.read(undefined, readOptions);
    }
    return read;
  };
  return {
    async read(paths, readOptions) {
      const read = await readWithDownloads(paths, readOptions);
      // No paths at all is a project of controllers alone (`cosi graph --config X`), not empty input.
      const own =
        options.files.length === 0
          ? read.findings.filter((f) => f.code !== 'empty-input')
          : read.findings;
      const findings = explainMissingConfig([...extra.findings, ...own], config);
      if (
        findings.length === read.findings.length &&
        findings.every((f, i) => f === read.findings[i])
      )
        return read;
      // Spreading reads the lazy resource list: only a read whose findings changed pays for it.
      return withChanges({ ...read, findings }, read.changes);
    },
  };
}

/**
 * Reads a project's manifests once, as a one-shot command does: the `--definitions` paths, the
 * previous revision (`--previous`), then the manifests.
 */
export async function readProjectManifests(
  options: ReadProjectOptions,
  config: LoadedConfig | undefined,
  prior?: PriorState,
): Promise<ReadResult> {
  return (await openProjectReader(options, config, prior)).read();
}
