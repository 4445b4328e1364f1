import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import { takeSnapshot, type StateSnapshot } from '../engine/state/state-snapshot.js';
import { createFinding, hasErrors, type Finding } from '../loaders/finding.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { formatPointer, pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type { DependencyGraph } from '../engine/runtime/dependency-graph.js';
import type { ManifestResource, ManifestSource } from '../loaders/manifest-resource.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import { readIgnoreFile } from '../loaders/ignore-file.js';
import { loadPreviousRevision } from './previous-revision.js';
import { readManifests, type ReadResult } from '../loaders/manifest-reader.js';
import { readDefinitionPaths } from '../loaders/definition-paths.js';
import { convergeProject, type ConvergeBounds } from './converge-project.js';
import { lastChangedFields } from './last-change.js';
import type { ExplainSource } from './explain/explain-source.js';
import { displayPath } from './display-path.js';
import { openProject, type OpenProjectOptions, type Project } from './project.js';
import { explainMissingConfig, loadProjectConfig, type ConfigLocation } from './project-config.js';

/** What a one-shot run of a project takes. */
export interface RunProjectOptions extends ConfigLocation, ConvergeBounds, OpenProjectOptions {
  /** `false`: register the controllers but do not run them (enough for the graph). */
  readonly converge?: boolean;
  /** `--ignore` patterns, beside those of the working directory's `.cosiignore`. */
  readonly ignore?: readonly string[];
  /** The standard input's bytes (or text), when a path is `-`. */
  readonly stdin?: Uint8Array | string;
  /** `--definitions` paths: only their definition documents (CRDs, cosi's) are read. */
  readonly definitionPaths?: readonly string[];
  /** Told which config was found (`undefined`: none), before anything else runs. */
  readonly onConfig?: (config: LoadedConfig | undefined) => void;
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
   * Release the manifests' resources once the state holds them, rather than keep them through
   * the run: the run's `manifests.resources` is then empty. For commands that print from the
   * state only (`apply`, `get`, `graph --resources` unrecorded); `check` and `explain` read them.
   */
  readonly releaseManifests?: boolean;
  /** `--skip-kinds`: documents of these kinds are neither checked nor loaded. */
  readonly skipKinds?: readonly string[];
  /** `--reject-kinds`: documents of these kinds are errors. */
  readonly rejectKinds?: readonly string[];
  /** `--ignore-unknown-kinds`: Kubernetes documents of an undefined kind are skipped. */
  readonly ignoreUnknownKinds?: boolean;
}

/** One run of a project, start to end, as `apply`, `get`, `check` and `graph` use it. */
export interface ProjectRun {
  readonly config: LoadedConfig | undefined;
  /** The manifests read: files, resources, definitions and every finding. */
  readonly manifests: ReadResult;
  /** Absent when the manifests have errors: nothing was started. */
  readonly outcome?: RunOutcome;
}

/** The part of a run that exists once the manifests were valid. */
export interface RunOutcome {
  /** Stopped by the end of the run: read its registry, runtime graph and names. */
  readonly project: Project;
  /** The state at the end of the run. */
  readonly snapshot: StateSnapshot;
  /** Absent when the controllers were not run (`converge: false`). */
  readonly report?: ConvergenceReport;
  /** What the run found about what the controllers wrote (types with no definition). */
  readonly findings: readonly Finding[];
  /** For each resource that kept changing (by pointer key): the fields its last write changed. */
  readonly lastChanges: ReadonlyMap<string, readonly string[]>;
}

/** What `cosi explain` reads of a run made with `record: true` (`undefined`: not recorded). */
export function explainSourceOf(
  outcome: RunOutcome,
  manifests: readonly ManifestResource[],
): ExplainSource | undefined {
  const record = outcome.project.record;
  if (!record) return undefined;
  return {
    record,
    resources: outcome.snapshot.resources,
    manifests,
    graph: outcome.project.runtime.dependencyGraph(),
    ...(outcome.report ? { report: outcome.report } : {}),
  };
}

/**
 * Loads the config and the manifests and, unless the manifests have errors, opens the project,
 * converges it (unless told not to), snapshots the state and stops the runtime.
 *
 * @throws ConfigError when the config cannot be found, loaded or registered.
 */
export async function runProject(options: RunProjectOptions): Promise<ProjectRun> {
  const config = await loadProjectConfig(options);
  options.onConfig?.(config);
  const { manifests, project, sources } = await openRun(options, config);
  if (project === undefined) return { config, manifests };
  try {
    const report = options.converge === false ? undefined : await convergeProject(project, options);
    const snapshot = await takeSnapshot(project.state);
    const lastChanges = await lastChangedFields(
      project.state,
      report?.oscillating.map((o) => o.pointer) ?? [],
    );
    const findings = [
      ...(report ? collisionFindings(sources, project.runtime.dependencyGraph(), report) : []),
      ...undefinedTypeFindings(snapshot, project.registry, config, options.cwd),
    ];
    return {
      config,
      manifests,
      outcome: { project, snapshot, findings, lastChanges, ...(report ? { report } : {}) },
    };
  } finally {
    await project.runtime.stop();
  }
}

/**
 * Reads the manifests and opens the project on them; with `releaseManifests`, what it returns no
 * longer holds the loaded resources. A function of its own: an async function keeps its locals and
 * temporaries across every await, so `runProject` holding the loaded manifests even once kept all
 * of them alive through the whole run.
 */
async function openRun(
  options: RunProjectOptions,
  config: LoadedConfig | undefined,
): Promise<{ manifests: ReadResult; project?: Project; sources: Map<string, ManifestSource> }> {
  const manifests = await readRunManifests(options, config);
  if (hasErrors(manifests.findings)) return { manifests, sources: new Map() };
  const project = await openProject(config, manifests, { ...options, applyOnce: true });
  const sources = sourcesByKey(manifests.resources);
  return {
    manifests: options.releaseManifests === true ? { ...manifests, resources: [] } : manifests,
    project,
    sources,
  };
}

/**
 * The config and the manifests, loaded as a run loads them but with nothing opened or run: what
 * `cosi explain TYPE.FIELD` reads the types of (`manifests.registry`: the config's definitions,
 * the `--definitions` paths' and the manifests' own).
 *
 * @throws ConfigError when the config cannot be found or loaded.
 */
export async function loadProjectDefinitions(
  options: RunProjectOptions,
): Promise<Pick<ProjectRun, 'config' | 'manifests'>> {
  const config = await loadProjectConfig(options);
  options.onConfig?.(config);
  return { config, manifests: await readRunManifests(options, config) };
}

/** The run's manifests: the `--definitions` paths, the previous revision, then the manifests. */
async function readRunManifests(
  options: RunProjectOptions,
  config: LoadedConfig | undefined,
): Promise<ReadResult> {
  const ignore = await ignorePatterns(options);
  const extra = await readDefinitionPaths(options.definitionPaths ?? [], {
    cwd: options.cwd,
    ignore,
  });
  const previous =
    options.previous === undefined
      ? undefined
      : await loadPreviousRevision(options.previous, {
          paths: options.files,
          cwd: options.cwd,
          definitions: [...(config?.definitions ?? []), ...extra.definitions],
          ignore,
          ...(options.kubernetesVersion === undefined
            ? {}
            : { kubernetesVersion: options.kubernetesVersion }),
        });
  const read = await readManifests(options.files, {
    cwd: options.cwd,
    ignore,
    ...(options.kubernetesVersion === undefined
      ? {}
      : { kubernetesVersion: options.kubernetesVersion }),
    ...(options.skipKinds === undefined ? {} : { skipKinds: options.skipKinds }),
    ...(options.rejectKinds === undefined ? {} : { rejectKinds: options.rejectKinds }),
    ...(options.ignoreUnknownKinds === true ? { ignoreUnknownKinds: true } : {}),
    ...(previous === undefined ? {} : { previous }),
    ...(options.positions === false ? { positions: false } : {}),
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    definitions: [...(config?.definitions ?? []), ...extra.definitions],
    ...(config ? { definitionsSource: displayPath(options.cwd, config.file) } : {}),
  });
  // No paths at all is a project of controllers alone (`cosi graph --config X`), not empty input.
  const findings = [
    ...extra.findings,
    ...(options.files.length === 0
      ? read.findings.filter((f) => f.code !== 'empty-input')
      : read.findings),
  ];
  return { ...read, findings: explainMissingConfig(findings, config) };
}

/** The patterns manifest walks skip: `.cosiignore` in the working directory, then `--ignore`. */
export async function ignorePatterns(
  options: Pick<RunProjectOptions, 'cwd' | 'ignore'>,
): Promise<string[]> {
  return [...(await readIgnoreFile(options.cwd)), ...(options.ignore ?? [])];
}

/**
 * A warning for each type that controllers wrote but nothing defines: tables, aliases and schemas
 * know nothing of it. It names the writers, and the config they come from.
 */
export function undefinedTypeFindings(
  snapshot: StateSnapshot,
  registry: DefinitionRegistry,
  config: LoadedConfig | undefined,
  cwd: string,
): Finding[] {
  const writers = new Map<string, Set<string>>();
  for (const resource of snapshot.resources) {
    const { type, owner } = resource.metadata;
    if (registry.get(type) !== undefined) continue;
    let set = writers.get(type);
    if (!set) writers.set(type, (set = new Set()));
    if (owner !== '') set.add(owner);
  }
  return [...writers].map(([type, owners]) =>
    createFinding({
      code: 'undefined-type',
      message: `${type} is written by ${[...owners].sort().join(', ') || 'the manifests'} but has no definition: add it to the config's definitions (defineResource) so that it gets aliases, print columns and a schema`,
      file: config ? displayPath(cwd, config.file) : '',
      line: 0,
      col: 0,
      pointer: '',
    }),
  );
}

/** The pointer a `pointerKey` was made of. */
function pointerOfKey(key: string): Pointer {
  const [namespace = '', type = '', id = ''] = key.split('\0');
  return { namespace, type, id };
}

/** How the state words an owner conflict with a manifest (whose owner is empty). */
const MANIFEST_OWNER_CONFLICT =
  /resource (\S+?)\((\S*?)\/(\S+?)\) is owned by "", not "((?:[^"\\]|\\.)*)"/g;

/**
 * Manifests that collide with what a controller writes, at the manifest's file and line, the same
 * way for every kind of controller: a manifest of a type that a controller declares as its
 * exclusive output (whatever its id), and a manifest that a controller tried to overwrite (its
 * write was refused: the manifest is the user's).
 */
export function collisionFindings(
  sources: ReadonlyMap<string, ManifestSource>,
  graph: DependencyGraph,
  report: ConvergenceReport,
): Finding[] {
  const exclusive = new Map(
    graph.edges.filter((e) => e.kind === 'exclusive').map((e) => [e.type, e.controller]),
  );
  const collisions = new Map<string, string>();
  for (const key of exclusive.size === 0 ? [] : sources.keys()) {
    // The type is between the key's two separators (see pointerKey).
    const writer = exclusive.get(key.slice(key.indexOf('\0') + 1, key.lastIndexOf('\0')));
    if (writer !== undefined) collisions.set(key, writer);
  }
  for (const controller of report.controllers) {
    const errors = [controller.lastError ?? '', ...controller.failingItems.map((i) => i.error)];
    for (const error of errors) {
      for (const [, type = '', namespace = '', id = '', writer = ''] of error.matchAll(
        MANIFEST_OWNER_CONFLICT,
      )) {
        const key = pointerKey({ namespace, type, id });
        if (sources.has(key) && !collisions.has(key))
          collisions.set(key, JSON.parse(`"${writer}"`) as string);
      }
    }
  }
  return [...collisions].map(([key, writer]) => {
    const source = sources.get(key) as ManifestSource;
    return createFinding({
      code: 'output-collision',
      message: `${formatPointer(pointerOfKey(key))} is also written by controller ${JSON.stringify(writer)}: a manifest cannot hold a controller's output (the manifest wins and the controller fails or is ignored); remove it from the manifests or change its id`,
      file: source.file,
      line: source.line,
      col: source.col,
      pointer: '',
    });
  });
}

/**
 * What the findings after the run need of the manifests: where each one is, by key. */
function sourcesByKey(resources: readonly ManifestResource[]): Map<string, ManifestSource> {
  const sources = new Map<string, ManifestSource>();
  for (const r of resources) sources.set(r.key, r.source);
  return sources;
}
