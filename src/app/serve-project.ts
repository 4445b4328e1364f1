import { createManager, type Manager } from '../engine/builder/manager.js';
import { isConflict, isNotFound, toError } from '../engine/errors.js';
import { RealClock, type Timer } from '../engine/runtime/clock.js';
import type { RunRecorder } from '../engine/record/run-record.js';
import type { LogRecord } from '../engine/runtime/logger.js';
import type { QueueMetricsSink } from '../engine/runtime/queue-metrics.js';
import { formatPointer } from '../engine/resource/pointer.js';
import type { AppliedEntry, ApplyResult } from '../engine/state/resource-applier.js';
import type { State } from '../engine/state/state.js';
import { createFinding, hasErrors, type Finding } from '../loaders/finding.js';
import type { ManifestResource } from '../loaders/load-manifests.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import type { ReadResult } from '../loaders/manifest-reader.js';
import { appliedRecord, type AppliedRecord } from './applied-record.js';
import { ForeignStateError, foreignTypes } from './foreign-state.js';
import { projectControllerNames } from './project-controller-names.js';
import { declaredControllers, declaredControllersKey } from './declared-controllers.js';
import { followInstanceNamespaces } from './instance-namespaces.js';
import { isResourceGraphController } from '../controllers/resource-graph.js';
import { projectFingerprint, type ProjectFingerprint } from './project-fingerprint.js';
import { defineWrittenBuiltins, registerProjectControllers, type Project } from './project.js';
import { ProjectSession } from './project-session.js';
import { withConfigManifests, type ManifestsRequirement } from './config-manifests.js';
import { loadProjectConfig, type ConfigLocation } from './project-config.js';
import { readProjectManifests, type ReadProjectOptions } from './read-project-manifests.js';
import {
  scanForLeader,
  undeclaredOutputs,
  type LeaderScan,
  type OwnedResource,
} from './leader-scan.js';

/** What serving a project takes. */
export interface ServeProjectOptions
  extends
    ConfigLocation,
    ManifestsRequirement,
    Pick<
      ReadProjectOptions,
      'definitionPaths' | 'schemaLocations' | 'schemaCache' | 'kubernetesVersion'
    > {
  /** The state to serve on: shared with other processes when it is on etcd. */
  readonly state: State;
  /**
   * Resolves once this process leads (`createManager`'s `elect`); without it, it leads at once.
   */
  readonly elect?: (signal: AbortSignal, fingerprint: ProjectFingerprint) => Promise<void>;
  /** Who this process is (`host/pid`), written in its project fingerprint. */
  readonly identity?: string;
  /** `--ignore` patterns, beside those of `.cosiignore`. */
  readonly ignore?: readonly string[];
  /** Controller logs. */
  readonly onLog?: (record: LogRecord) => void;
  /**
   * Awaited once the config, its controllers (its `setup` on a scratch runtime) and the manifests
   * loaded without errors, before the state is read or written: `cosi run --watch` stops the
   * runtime this start replaces only then, and a config saved mid-edit leaves it running. A
   * rejection ends the start with that error.
   */
  readonly loaded?: () => Promise<void>;
  /** Manifest writes under way at once (see `OpenProjectOptions.applyConcurrency`); 1. */
  readonly applyConcurrency?: number;
  /** Controller writes under way at once (see `OpenProjectOptions.writesInFlight`); 1. */
  readonly writesInFlight?: number;
  /** A run recorder for the runtime: `cosi run`'s metrics count and time reconciles with it. */
  readonly recorder?: RunRecorder;
  /** Told what each controller's queue does (`RuntimeOptions.queueMetrics`): `cosi run`'s metrics. */
  readonly queueMetrics?: QueueMetricsSink;
  /**
   * How the state is named in a refusal (`etcd://127.0.0.1:2379/demo`). A state that holds
   * resources of types the project does not define is refused ({@link ForeignStateError}).
   */
  readonly stateName?: string;
  /** How often released manifests (torn down, held by finalizers) are checked, ms; 250. */
  readonly releaseInterval?: number;
  /**
   * The largest request the state takes, in bytes (etcd's `--max-request-bytes`, 1.5 MiB by
   * default); none for a state in memory. A resource that cannot fit is not applied: it is a
   * `too-large-for-state` finding at its manifest, and the others apply.
   */
  readonly maxRequestBytes?: number;
  /**
   * Where the set of resources applied is kept between runs (etcd, under the prefix): the first
   * apply prunes what the last run applied and these manifests no longer have, and every apply
   * records its set. Without it (a state in memory, which no run had before), nothing is pruned
   * but what this process applied itself.
   */
  readonly appliedSet?: AppliedSetStore;
}

/** The set of resources `cosi run` applied last, kept in the state (see `EtcdState`). */
export interface AppliedSetStore {
  /**
   * What the last run applied, with the label and annotation keys of its manifests and the
   * owners their owner references named.
   */
  readAppliedSet(): Promise<readonly AppliedEntry[] | undefined>;
  /** Records what this run applied (see {@link AppliedRecord}). */
  writeAppliedSet(applied: readonly AppliedRecord[]): Promise<void>;
}

/** What an apply of the manifests did, counted. */
export interface ApplyCounts {
  readonly resources: number;
  readonly created: number;
  readonly updated: number;
  readonly removed: number;
}

/** A served project: its runtime runs on the real clock until stopped. */
export interface ServedProject {
  /** The session it runs on: the same path as apply, check, watch and explain. */
  readonly session: ProjectSession;
  /**
   * The paths served: the manifests' (those given, or given none those the config names) and the
   * definitions' (`--definitions`, or the config's `definitionFiles`).
   */
  readonly files: readonly string[];
  /** The project's scripts the config loaded: itself and the modules it imports. */
  readonly scripts: readonly string[];
  readonly project: Project;
  readonly manager: Manager;
  /**
   * Every controller the config registers (its `setup`'s too), sorted: known before this
   * process leads, when the leader's are not registered yet (a follower's metrics name them).
   */
  readonly controllerNames: readonly string[];
  /** What the first apply did. */
  readonly applied: ApplyCounts;
  /** The resources the first apply left out, as findings (`too-large-for-state`). */
  readonly skipped: readonly Finding[];
  /**
   * Resolves once this process leads and the leader's controllers are registered; rejects when
   * the election fails or they cannot be registered (a ConfigError).
   */
  readonly elected: Promise<void>;
  /**
   * Reads the manifests again and applies their difference to the state. Manifests with errors
   * apply nothing: the findings are returned, and what was applied before keeps running. Once
   * the runtime has settled on what was applied, `onSettled` is told what was. Manifests whose
   * definitions or declared controllers (a CRD, a kro RGD, a transform) differ from those this
   * project started with apply nothing either: the running controllers and types are the
   * started ones, and only a new start (which applies them) loads the changed ones.
   */
  reapply(
    onSettled?: (applied: ApplyCounts) => void,
  ): Promise<
    | { readonly applied: ApplyCounts; readonly skipped: readonly Finding[] }
    | { readonly findings: readonly Finding[] }
    | { readonly definitionsChanged: true }
  >;
  /**
   * Resolves once the runtime has nothing left to do, the RGD controllers having read every
   * namespace their instances appeared in meanwhile (`instance-namespaces.ts`).
   */
  settle(): Promise<void>;
  /** Stops the controllers (both groups) and the runtime. The state is the caller's to close. */
  stop(): Promise<void>;
}

/** A start that did not get as far as running: the manifests have errors. */
export interface ServeRefused {
  readonly config: LoadedConfig | undefined;
  readonly findings: readonly Finding[];
}

/** A concurrent writer (another process applying the same manifests) is retried this often. */
const APPLY_ATTEMPTS = 5;

/**
 * Serves a project on a (shared) state: the long-lived runtime of `cosi run`. Loads the config
 * and the manifests, applies the manifests to the state (what is there already is updated, not
 * duplicated: other processes may serve the same project), then starts a manager on the real
 * clock: controllers with `needLeaderElection: false` start in every process, the others and the
 * config's `setup` once this process is elected. Manifests removed by a later
 * {@link ServedProject.reapply} are torn down, and destroyed once their finalizers are gone.
 *
 * @throws ConfigError when the config cannot be found, loaded, or its controllers registered;
 *   ForeignStateError when the state holds another project's resources; MissingManifestsError
 *   when manifests are required and neither the options nor the config give any.
 */
export async function serveProject(
  options: ServeProjectOptions,
): Promise<ServedProject | ServeRefused> {
  const config = await loadProjectConfig(options);
  // Given no paths, the config's (and its ignore patterns join `--ignore`'s).
  const resolved = withConfigManifests(options, config);
  const read = (): Promise<ReadResult> => readProjectManifests(resolved, config);
  const first = await read();
  if (hasErrors(first.findings)) return { config, findings: first.findings };
  // Before anything is started: the fingerprint's, and a `setup` that fails fails here.
  // The RGDs' and YAML transforms' controllers run beside the config's, as in `apply`; they are
  // the manifests' of the first load, as the config's code is the one the process started with.
  const declared = declaredControllers(first.registry, first.resources);
  /** What a restart would load anew: the definitions and the declared controllers' sources. */
  const definitionsKey = (load: ReadResult): string =>
    `${JSON.stringify(load.registry.all())}\n${declaredControllersKey(load.registry)}`;
  const startedKey = definitionsKey(first);
  const controllerNames = [
    ...(await projectControllerNames(config, options.cwd, options.timeout, options.monitor)),
    ...declared.map((c) => c.name),
  ].sort();
  await options.loaded?.();
  // Another project's resources under the same prefix would be mixed with this one's.
  const foreign = await foreignTypes(options.state, first.registry);
  if (foreign.length > 0) throw new ForeignStateError(options.stateName ?? 'the state', foreign);
  const clock = new RealClock();
  // The manifests are applied below, with retries: another process may be applying them too.
  const session = await ProjectSession.open(
    config,
    { registry: first.registry, resources: [] },
    {
      cwd: options.cwd,
      state: options.state,
      clock,
      registerControllers: false,
      ...(options.monitor ? { monitor: options.monitor } : {}),
      ...(options.onLog ? { onLog: options.onLog } : {}),
      ...(options.recorder ? { recorder: options.recorder } : {}),
      ...(options.queueMetrics ? { queueMetrics: options.queueMetrics } : {}),
      ...(options.applyConcurrency !== undefined
        ? { applyConcurrency: options.applyConcurrency }
        : {}),
      ...(options.writesInFlight !== undefined ? { writesInFlight: options.writesInFlight } : {}),
    },
  );
  const { project } = session;
  const { runtime, applier } = project;
  const interval = options.releaseInterval ?? 250;
  let releaseTimer: Timer | undefined;
  let stopped = false;
  let adopted = false;

  /** Destroys released manifests once nothing holds them, checking again until none is left. */
  const scheduleReleases = (): void => {
    if (stopped || releaseTimer !== undefined || applier.releasing === 0) return;
    releaseTimer = clock.setTimer(interval, () => {
      releaseTimer = undefined;
      applier
        .destroyReleased()
        .catch((error: unknown) => {
          // Another process serving the same manifests destroyed it first.
          if (!isNotFound(error) && !isConflict(error))
            runtime.logger.error(toError(error).message);
        })
        .finally(scheduleReleases);
    });
  };

  const apply = async (
    load: ReadResult,
  ): Promise<{ applied: ApplyCounts; skipped: readonly Finding[] }> => {
    const { fitting, skipped, oversized } = splitOversized(load.resources, options.maxRequestBytes);
    const { appliedSet } = options;
    if (appliedSet !== undefined && !adopted) {
      // What an earlier run applied: those these manifests dropped are pruned by this apply.
      applier.adopt((await appliedSet.readAppliedSet()) ?? []);
      adopted = true;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        // One too large to apply now stays as the state holds it (as applied before): not removed.
        const retained = new Set(oversized.map((r) => r.key));
        const result = await session.applyEdit({ resources: fitting }, { retained });
        scheduleReleases();
        if (appliedSet !== undefined) {
          const { registry } = load;
          const kept = [...retained].flatMap((key) => {
            const last = applier.lastApplied(key);
            return last === undefined
              ? []
              : [appliedRecord(last, last.spec, registry.get(last.type))];
          });
          await appliedSet.writeAppliedSet([
            ...fitting.map((r) =>
              appliedRecord(r.resource.metadata, r.resource.spec, r.definition),
            ),
            ...kept,
          ]);
        }
        return { applied: counts(fitting.length, result), skipped };
      } catch (error) {
        if (!isConflict(error) || attempt >= APPLY_ATTEMPTS) throw error;
      }
    }
  };

  /**
   * What the leader takes on, read from the state as it takes the lead: the manifests' resources
   * left tearing down, destroyed once free (with an applied set: a state shared between runs),
   * and what the controllers own; undefined when the state could not be read.
   */
  const scanAsLeader = async (): Promise<LeaderScan | undefined> => {
    try {
      const scan = await scanForLeader(project.state);
      if (options.appliedSet !== undefined) {
        applier.adoptReleased(scan.tornDownManifests);
        scheduleReleases();
      }
      return scan;
    } catch (error) {
      runtime.logger.warn(
        `could not look for what an earlier run left to clean up: ${toError(error).message}`,
      );
      return undefined;
    }
  };

  /**
   * Destroys those of `owned` the controllers no longer declare as outputs (see
   * undeclaredOutputs), as kro prunes the kinds its graph no longer renders: each is torn down
   * and destroyed once its finalizers are gone.
   */
  const destroyUndeclaredOutputs = (owned: readonly OwnedResource[]): void => {
    for (const { pointer, owner } of undeclaredOutputs(owned, runtime.dependencyGraph())) {
      // A warning: shown without --verbose, as `kubectl apply --prune` says what it pruned.
      runtime.logger.warn('destroying a resource its controller no longer declares as an output', {
        controller: owner,
        resource: formatPointer(pointer),
        code: 'undeclared-output',
      });
      project.state.teardownAndDestroy(pointer, { owner }).catch((error: unknown) => {
        if (!stopped && !isNotFound(error) && !isConflict(error)) {
          runtime.logger.error(toError(error).message);
        }
      });
    }
  };

  const graphs = declared.filter(isResourceGraphController);
  /** Settles, following the RGD controllers' instances into new namespaces (leader only). */
  const settle = async (): Promise<void> => {
    do await runtime.settle();
    while (!stopped && (await followInstanceNamespaces(project.state, runtime, graphs)));
  };
  const fingerprint = projectFingerprint(first.registry, controllerNames, options.identity ?? '');
  const { elect } = options;
  const manager = createManager(
    runtime,
    elect ? { elect: (signal) => elect(signal, fingerprint) } : {},
  );
  try {
    const { applied, skipped } = await apply(first);
    await manager.add({
      needLeaderElection: false,
      start: () =>
        registerProjectControllers(
          runtime,
          config,
          options.cwd,
          'everywhere',
          options.timeout,
          options.monitor,
        ),
    });
    await manager.add({
      start: async () => {
        // A process that stopped while manifests it removed were tearing down left them to be
        // destroyed once their finalizers are gone: the leader takes them on (a restart, or a
        // fail-over to a process that did not apply the removal). Read before the controllers
        // start: one that never yields would keep this read, and the lead's announcement after
        // it, from ever running.
        const scan = await scanAsLeader();
        await registerProjectControllers(
          runtime,
          config,
          options.cwd,
          'leader',
          options.timeout,
          options.monitor,
        );
        if (declared.length > 0) await runtime.register(...declared);
        // The built-in kinds the controllers write (an RGD's Deployments) are defined in the
        // state, as in `apply`: `get --state` prints them as their kind.
        await defineWrittenBuiltins(
          project.state,
          runtime,
          project.registry,
          resolved.kubernetesVersion,
        );
        // Once the controllers are registered: their declarations say what is undeclared.
        if (scan !== undefined) destroyUndeclaredOutputs(scan.owned);
      },
    });
    await manager.start();
    return {
      session,
      // `--watch` watches them: a changed definition starts the runtime again.
      files: [...resolved.files, ...(resolved.definitionPaths ?? [])],
      scripts: config?.sources ?? (config === undefined ? [] : [config.file]),
      project,
      manager,
      controllerNames,
      applied,
      skipped,
      elected: manager.elected,
      reapply: async (onSettled) => {
        const load = await read();
        if (hasErrors(load.findings)) return { findings: load.findings };
        // Applied with the changed definitions, instances would take their new defaults while
        // the started controllers render them by the old ones: nothing is, until a new start.
        if (definitionsKey(load) !== startedKey) return { definitionsChanged: true };
        const result = await apply(load);
        // An instance in a namespace no instance was in: the RGD controllers read it once the
        // runtime has settled on what was applied.
        void settle().then(
          () => {
            if (!stopped) onSettled?.(result.applied);
          },
          () => undefined,
        );
        return result;
      },
      settle,
      stop: async () => {
        stopped = true;
        releaseTimer?.cancel();
        await manager.stop();
        await session.close();
      },
    };
  } catch (error) {
    await manager.stop();
    await session.close();
    throw error;
  }
}

/**
 * Room left in a request for what the stored value adds to the manifest's JSON (the version,
 * owner and timestamps) and for the key and the label index keys written with it.
 */
const REQUEST_OVERHEAD_BYTES = 16 * 1024;

/** The resources that fit in a request of `maxRequestBytes`, and a finding for each other. */
function splitOversized(
  resources: readonly ManifestResource[],
  maxRequestBytes: number | undefined,
): { fitting: ManifestResource[]; oversized: ManifestResource[]; skipped: Finding[] } {
  if (maxRequestBytes === undefined) {
    return { fitting: [...resources], oversized: [], skipped: [] };
  }
  const fitting: ManifestResource[] = [];
  const oversized: ManifestResource[] = [];
  const skipped: Finding[] = [];
  for (const loaded of resources) {
    const { metadata, spec } = loaded.resource;
    const bytes = Buffer.byteLength(JSON.stringify({ metadata, spec }));
    if (bytes + REQUEST_OVERHEAD_BYTES <= maxRequestBytes) {
      fitting.push(loaded);
      continue;
    }
    oversized.push(loaded);
    skipped.push(
      createFinding({
        code: 'too-large-for-state',
        message: `${metadata.type} ${JSON.stringify(metadata.id)} is ${bytes} bytes stored: over the state's request limit of ${maxRequestBytes} bytes (etcd --max-request-bytes), not applied`,
        file: loaded.source.file,
        line: loaded.source.line,
        col: loaded.source.col,
        pointer: '',
      }),
    );
  }
  return { fitting, oversized, skipped };
}

function counts(resources: number, result: ApplyResult): ApplyCounts {
  return {
    resources,
    created: result.created.length,
    updated: result.updated.length,
    removed: result.tornDown.length,
  };
}
