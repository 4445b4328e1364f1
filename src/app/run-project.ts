import type { ResourceGraph } from '../controllers/compiled-resource-graph.js';
import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import { resourceGraphsOf, templateOriginsOf } from './explain/template-origins.js';
import { isOwnerConflictRecord } from '../engine/runtime/error-record.js';
import { takeSnapshot, type StateSnapshot } from '../engine/state/state-snapshot.js';
import { createFinding, type Finding } from '../loaders/finding.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { formatPointer, pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type { DependencyGraph } from '../engine/runtime/dependency-graph.js';
import type { ManifestResource, ManifestSource } from '../loaders/manifest-resource.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import type { ReadResult } from '../loaders/manifest-reader.js';
import type { ConvergeBounds } from './converge-project.js';
import { lastChangedFields } from './last-change.js';
import type { ExplainSource } from './explain/explain-source.js';
import { displayPath } from './display-path.js';
import type { OpenProjectOptions, Project } from './project.js';
import { withConfigManifests, type ManifestsRequirement } from './config-manifests.js';
import { loadProjectConfig } from './project-config.js';
import { ProjectSession } from './project-session.js';
import { readProjectManifests, type ReadProjectOptions } from './read-project-manifests.js';
import { stateFindings } from './state-findings.js';

/** What a one-shot run of a project takes. */
export interface RunProjectOptions
  extends ReadProjectOptions, ConvergeBounds, OpenProjectOptions, ManifestsRequirement {
  /** `false`: register the controllers but do not run them (enough for the graph). */
  readonly converge?: boolean;
  /** Told which config was found (`undefined`: none), before anything else runs. */
  readonly onConfig?: (config: LoadedConfig | undefined) => void;
  /**
   * Release the manifests' resources once the state holds them, rather than keep them through
   * the run: the run's `manifests.resources` is then empty. For commands that print from the
   * state only (`apply`, `get`, `graph --resources` unrecorded); `check` and `explain` read them.
   */
  readonly releaseManifests?: boolean;
  /**
   * When the manifests have errors, still open the project on those that loaded, without running
   * it: its controllers' graph and the loaded resources, for a report of what failed.
   */
  readonly openInvalid?: boolean;
}

/** One run of a project, start to end, as `apply`, `get`, `check` and `graph` use it. */
export interface ProjectRun {
  readonly config: LoadedConfig | undefined;
  /** The manifests read: files, resources, definitions and every finding. */
  readonly manifests: ReadResult;
  /**
   * Absent when the manifests have errors: nothing was started (with `openInvalid`, present but
   * not run: no `report`).
   */
  readonly outcome?: RunOutcome;
}

/** The part of a run that exists once the manifests were valid. */
export interface RunOutcome {
  /** Stopped by the end of the run: read its registry, runtime graph and names. */
  readonly project: Project;
  /** The state at the end of the run. */
  readonly snapshot: StateSnapshot;
  /** Absent when the controllers were not run (`converge: false`, or invalid manifests). */
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
  const graphs = resourceGraphsOf(outcome.project.registry);
  const byInstanceType = new Map([...graphs.values()].map((g) => [g.instanceType, g]));
  return {
    record,
    resources: outcome.snapshot.resources,
    manifests,
    graph: outcome.project.runtime.dependencyGraph(),
    ...(outcome.report ? { report: outcome.report } : {}),
    templateOrigins: templateOriginsOf(outcome.project.registry),
    resourceGraph: (controller) => graphs.get(controller),
    locateDefault: (type, field) => schemaDefaultAt(byInstanceType.get(type), field),
    isKubernetesType: (type) => outcome.project.registry.get(type)?.kubernetes !== undefined,
    isClusterScoped: (type) => outcome.project.registry.get(type)?.kubernetes?.namespaced === false,
    isSensitive: (type) => outcome.project.registry.get(type)?.sensitivity === 'sensitive',
  };
}

/**
 * Loads the config and the manifests and, unless the manifests have errors (or `openInvalid`),
 * opens the project, converges it (unless told not to, or the manifests have errors: but an
 * RGD's, see {@link stopsRun}), snapshots
 * the state and stops the runtime.
 *
 * @throws ConfigError when the config cannot be found, loaded or registered.
 */
export async function runProject(given: RunProjectOptions): Promise<ProjectRun> {
  const config = await loadProjectConfig(given);
  given.onConfig?.(config);
  const options = withConfigManifests(given, config);
  const { manifests, session, sources } = await openRun(options, config);
  if (session === undefined) return { config, manifests };
  const { project } = session;
  const run = options.converge !== false && !stopsRun(manifests.findings);
  try {
    const report = run ? await session.converge() : undefined;
    if (report) await options.monitor?.settled?.();
    const snapshot = await takeSnapshot(project.state);
    const lastChanges = await lastChangedFields(
      project.state,
      report?.oscillating.map((o) => o.pointer) ?? [],
    );
    const findings = outcomeFindings({
      project,
      snapshot,
      sources,
      config,
      cwd: options.cwd,
      ...(report ? { report } : {}),
    });
    return {
      config,
      manifests,
      outcome: { project, snapshot, findings, lastChanges, ...(report ? { report } : {}) },
    };
  } finally {
    await session.close();
  }
}

/**
 * Whether the manifests' findings keep the controllers from running: an error, but for those of
 * a kro ResourceGraphDefinition (`rgd-*`), which defines neither a kind nor a controller: the
 * other RGDs still run, so that their render errors are reported beside it (the run's exit code
 * still fails on it).
 */
export function stopsRun(findings: readonly Finding<string>[]): boolean {
  return findings.some((f) => f.severity === 'error' && !f.code.startsWith('rgd-'));
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
): Promise<{
  manifests: ReadResult;
  session?: ProjectSession;
  sources: Map<string, ManifestSource>;
}> {
  const manifests = await readProjectManifests(options, config);
  const invalid = stopsRun(manifests.findings);
  if (invalid && options.openInvalid !== true) return { manifests, sources: new Map() };
  let session: ProjectSession;
  try {
    session = await ProjectSession.open(config, manifests, { ...options, applyOnce: true });
  } catch (error) {
    // Opened only to show more of a project whose manifests failed: a project that cannot open
    // (controllers that cannot register) is left unopened, as without `openInvalid`.
    if (invalid) return { manifests, sources: new Map() };
    throw error;
  }
  const sources = sourcesByKey(manifests.resources);
  return {
    manifests: options.releaseManifests === true ? { ...manifests, resources: [] } : manifests,
    session,
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
  return {
    config,
    manifests: await readProjectManifests(withConfigManifests(options, config), config),
  };
}

/** What {@link outcomeFindings} reads of a run. */
export interface OutcomeFindingsSource {
  readonly project: Project;
  /** The state at the end of the run. */
  readonly snapshot: StateSnapshot;
  /** Where each manifest is, by pointer key. */
  readonly sources: ReadonlyMap<string, ManifestSource>;
  readonly config: LoadedConfig | undefined;
  readonly cwd: string;
  /** Absent when the controllers were not run. */
  readonly report?: ConvergenceReport;
}

/**
 * What a run found of its outcome (`RunOutcome.findings`), the same for `cosi check` and
 * `cosi/testing`: types written without a definition and, once the controllers ran, manifests
 * that collide with their outputs and what the state they left shows (`stateFindings`).
 */
export function outcomeFindings(run: OutcomeFindingsSource): Finding[] {
  const { project, snapshot, sources, report } = run;
  return [
    ...(report ? collisionFindings(sources, project.runtime.dependencyGraph(), report) : []),
    ...undefinedTypeFindings(snapshot, project.registry, run.config, run.cwd),
    ...(report ? stateFindings(snapshot, project.registry, sources) : []),
  ];
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
    const errors = [
      ...(controller.lastError ? [controller.lastError] : []),
      ...controller.failingItems.map((i) => i.error),
    ];
    for (const error of errors) {
      // A manifest has no owner: the controller's write of it was refused as someone else's.
      if (!isOwnerConflictRecord(error) || error.pointer === undefined) continue;
      const key = pointerKey(error.pointer);
      if (sources.has(key) && !collisions.has(key)) collisions.set(key, controller.name);
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

/** Where an RGD's `spec.schema.spec` writes the field (`/spec/image`) of its instance. */
function schemaDefaultAt(graph: ResourceGraph | undefined, field: string): string | undefined {
  if (graph?.locateSchema === undefined || !field.startsWith('/spec/')) return undefined;
  const path = field
    .slice('/spec/'.length)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return graph.locateSchema(path);
}
