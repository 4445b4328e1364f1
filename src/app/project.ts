import * as path from 'node:path';
import { setupErrorMessage } from './setup-error-message.js';
import {
  RESOURCE_DEFINITION_TYPE,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { isConflict, isRegistrationError, type RegistrationError } from '../engine/errors.js';
import { isSafeError, messageOfThrown } from '../engine/thrown-value.js';
import { SIMULATED_EPOCH, SimulatedClock, type Clock } from '../engine/runtime/clock.js';
import type { AnyController } from '../engine/runtime/controller.js';
import type { LogRecord } from '../engine/runtime/logger.js';
import { createRuntime, type Runtime } from '../engine/runtime/runtime.js';
import { RunRecord, type RunRecorder } from '../engine/record/run-record.js';
import type { QueueMetricsSink } from '../engine/runtime/queue-metrics.js';
import { createInMemoryState } from '../engine/state/in-memory-state.js';
import { ResourceApplier } from '../engine/state/resource-applier.js';
import type { State } from '../engine/state/state.js';
import { ConfigError, type LoadedConfig } from '../loaders/load-config.js';
import { localImportHint, mayBeUndefinedImport } from '../loaders/local-import-hints.js';
import type { ManifestResource } from '../loaders/manifest-resource.js';
import type { Resource } from '../engine/resource/resource.js';
import { BuiltinKinds } from '../loaders/kubernetes/builtin-kinds.js';
import { projectKubernetesKinds } from './project-kubernetes-kinds.js';
import type { KubernetesRelease } from '../loaders/kubernetes/kubernetes-release.js';
import { definitionResource } from './definition-resource.js';
import { controllerSpecFields } from './controller-spec-fields.js';
import { displayPath } from './display-path.js';
import { projectErrorLocator } from './project-error-locator.js';
import { declaredControllers } from './declared-controllers.js';
import { followInstanceNamespaces } from './instance-namespaces.js';
import {
  isResourceGraphController,
  type ResourceGraphController,
} from '../controllers/resource-graph.js';
import { readControllerDeclarations } from './controller-declarations.js';
import { userCodeWait, withDeadline } from './user-code-deadline.js';
import type { UserCodeMonitor } from './user-code-site.js';

/**
 * A started project: the manifests in a fresh in-memory state, the config's controllers
 * registered on a runtime over it, on a simulated clock. What `apply`, `get`, `check`, `graph`
 * and every `watch` round run on.
 */
export interface Project {
  readonly state: State;
  readonly runtime: Runtime;
  /** Every type the project knows: the built-in ones, the config's and the manifests'. */
  readonly registry: DefinitionRegistry;
  /** Simulated unless {@link OpenProjectOptions.clock} gave another. */
  readonly clock: Clock;
  /** Keeps the manifests in the state: apply the next load to it, it writes the difference. */
  readonly applier: ResourceApplier<ManifestResource>;
  readonly config: LoadedConfig | undefined;
  /** With the `record` option: the record of everything the controllers did. */
  readonly record?: RunRecord;
  /**
   * Has the RGD controllers read the namespaces their instances appeared in since they last
   * looked (`instance-namespaces.ts`); whether there was any.
   */
  readonly followNamespaces: () => Promise<boolean>;
}

/** The manifests a project starts from: a load without error findings. */
export interface ProjectManifests {
  /** The built-in types, the config's and the manifests' (the loader resolved types with it). */
  readonly registry: DefinitionRegistry;
  readonly resources: readonly ManifestResource[];
}

export interface OpenProjectOptions {
  /** Paths in error messages are shown relative to it. */
  readonly cwd: string;
  /** Start the simulated clock at a fixed epoch, so timestamps are reproducible. */
  readonly stable?: boolean;
  /** Controller logs. */
  readonly onLog?: (record: LogRecord) => void;
  /**
   * A state to open the project on, shared with other processes (`cosi run --state`): what is
   * already in it is kept, and the definitions and manifests are written over it. A fresh
   * in-memory state when omitted.
   */
  readonly state?: State;
  /** The runtime's clock; a simulated one when omitted. */
  readonly clock?: Clock;
  /**
   * `false`: do not register the config's controllers (nor run its `setup`): the caller does,
   * in its own order (`cosi run` registers the leader group once elected).
   */
  readonly registerControllers?: boolean;
  /** Record every reconcile (for `cosi explain` and `--trace`): the project's `record`. */
  readonly record?: boolean;
  /**
   * Another run recorder for the runtime (`cosi run`'s metrics count and time reconciles with
   * one); `record` wins when both are given.
   */
  readonly recorder?: RunRecorder;
  /** Told what each controller's queue does (`RuntimeOptions.queueMetrics`): `cosi run`'s metrics. */
  readonly queueMetrics?: QueueMetricsSink;
  /**
   * The manifests are applied once (a one-shot run): the project's applier keeps none of them
   * (`keepApplied: false`), so they can be released while the controllers run.
   */
  readonly applyOnce?: boolean;
  /**
   * The Kubernetes release whose built-in kinds the manifests may use (default: the newest cosi
   * has); a type its controllers write that is such a kind gets that kind's definition.
   */
  readonly kubernetesVersion?: KubernetesRelease;
  /**
   * Manifest writes kept under way at once when the manifests are applied (default 1): a state
   * on etcd answers many in flight in about the time of one.
   */
  readonly applyConcurrency?: number;
  /**
   * The RGD controllers read observed statuses even when the manifests have none yet (a watch
   * or a test may add one later); see `declared-controllers.ts`.
   */
  readonly observeStatus?: boolean;
  /**
   * Writes a generic controller keeps under way at once (`RuntimeOptions.writesInFlight`,
   * default 1): on etcd, where each costs a round trip.
   */
  readonly writesInFlight?: number;
  /** Wall ms the config's `setup` may take (`--timeout`), at most `USER_CODE_WAIT`. */
  readonly timeout?: number;
  /** Told when the project's code runs (`setup`, each reconcile): a worker's heartbeat. */
  readonly monitor?: UserCodeMonitor;
  /**
   * Called with the runtime as soon as it exists, before any controller is registered
   * (`cosi/testing` wraps the controllers registered on it, to make a reconcile throw).
   */
  readonly onRuntime?: (runtime: Runtime) => void;
}

/**
 * Starts a project: stores the definitions (as resources, so `cosi get rd` lists them) and the
 * manifests in a new state, and registers the config's controllers (and runs its `setup`). The
 * controllers do not run until the project converges.
 *
 * @throws ConfigError naming the config file when its controllers cannot be registered or its
 *   `setup` fails; nothing is left running then.
 */
export async function openProject(
  config: LoadedConfig | undefined,
  manifests: ProjectManifests,
  options: OpenProjectOptions,
): Promise<Project> {
  const { registry } = manifests;
  const clock = options.clock ?? new SimulatedClock(options.stable ? SIMULATED_EPOCH : Date.now());
  const state = options.state ?? createInMemoryState({ now: () => clock.now() });
  const record =
    options.record === true
      ? new RunRecord({ now: () => clock.now(), wallNow: () => performance.now() })
      : undefined;
  const locateError = projectErrorLocator(config, options.cwd);
  const runtime = createRuntime(state, {
    clock,
    kubernetesKind: projectKubernetesKinds(registry, options.kubernetesVersion),
    ...(options.onLog ? { logSink: options.onLog } : {}),
    ...(record ? { recorder: record } : options.recorder ? { recorder: options.recorder } : {}),
    ...(options.queueMetrics ? { queueMetrics: options.queueMetrics } : {}),
    ...(locateError ? { locateError } : {}),
    ...(options.monitor ? { onReconcileStart: options.monitor.reconcile } : {}),
    ...(options.writesInFlight !== undefined ? { writesInFlight: options.writesInFlight } : {}),
  });
  options.onRuntime?.(runtime);
  // Grouped by file: a watch round applies only the files that changed.
  const graphs: ResourceGraphController[] = [];
  const applier = new ResourceApplier<ManifestResource>(state, {
    groupOf: (r) => r.source.file,
    keepApplied: options.applyOnce !== true,
    keptSpecFields: (type) => controllerSpecFields(registry.get(type)),
    ...(options.applyConcurrency !== undefined ? { concurrency: options.applyConcurrency } : {}),
    ...(record
      ? { onUpdated: (r: Resource) => record.manifestUpdated(r.metadata, r.metadata.version) }
      : {}),
  });
  try {
    await storeDefinitions(state, registry.all());
    await applier.apply(manifests.resources);
    options.monitor?.manifestsLoaded?.(manifests.resources);
    if (options.registerControllers !== false) {
      await registerProjectControllers(
        runtime,
        config,
        options.cwd,
        'all',
        options.timeout,
        options.monitor,
      );
      const declared = declaredControllers(registry, manifests.resources, {
        observe: options.observeStatus === true,
      });
      if (declared.length > 0) await runtime.register(...declared);
      graphs.push(...declared.filter(isResourceGraphController));
      await defineWrittenBuiltins(state, runtime, registry, options.kubernetesVersion);
    }
  } catch (error) {
    await runtime.stop();
    throw error;
  }
  return {
    state,
    runtime,
    registry,
    clock,
    applier,
    config,
    ...(record ? { record } : {}),
    followNamespaces: () => followInstanceNamespaces(state, runtime, graphs),
  };
}

/**
 * A type the controllers use that no manifest or config defines, and that names a built-in
 * Kubernetes kind (`Deployments.apps`), gets that kind's definition: its resources print in the
 * Kubernetes shape and its aliases (`deploy`) resolve, as when a manifest used the kind.
 */
export async function defineWrittenBuiltins(
  state: State,
  runtime: Runtime,
  registry: DefinitionRegistry,
  release: KubernetesRelease | undefined,
): Promise<void> {
  const builtins = BuiltinKinds.of(release);
  const found: ResourceDefinition[] = [];
  for (const type of runtime.dependencyGraph().types) {
    if (registry.has(type)) continue;
    const definition = builtins.findByType(type);
    if (definition === undefined) continue;
    registry.register(definition);
    found.push(definition);
  }
  await storeDefinitions(state, found);
}

/**
 * Definitions are resources too, in the `meta` namespace, as in COSI. On a shared state another
 * process may have stored them already: they are then updated to this project's.
 */
async function storeDefinitions(
  state: State,
  definitions: readonly ResourceDefinition[],
): Promise<void> {
  for (const d of definitions) {
    if (d.type === RESOURCE_DEFINITION_TYPE) continue;
    const resource = definitionResource(d);
    try {
      await state.create(resource);
    } catch (error) {
      if (!isConflict(error)) throw error;
      await state.updateWithConflicts(resource.metadata, (draft) => {
        draft.spec = resource.spec;
      });
    }
  }
}

/** Which of a config's controllers to register: `cosi run` splits them by leader election. */
export type ControllerPart = 'all' | 'everywhere' | 'leader';

/**
 * Registers the config's controllers and runs its `setup`: all of them, or one part: those that
 * run `everywhere` (`needLeaderElection: false`), or those that run only in the `leader` (the
 * rest, and `setup`, whose builder-made controllers join the leader's part).
 *
 * @throws ConfigError naming the config file when they cannot be registered or `setup` fails
 *   (or does not finish within `timeout`, at most `USER_CODE_WAIT`, wall ms).
 */
export async function registerProjectControllers(
  runtime: Runtime,
  loaded: LoadedConfig | undefined,
  cwd: string,
  part: ControllerPart = 'all',
  timeout?: number,
  monitor?: UserCodeMonitor,
): Promise<void> {
  if (!loaded) return;
  const { config } = loaded;
  const file = displayPath(cwd, loaded.file);
  const everywhere = (c: AnyController): boolean => c.needLeaderElection === false;
  try {
    readControllerDeclarations(config.controllers ?? [], monitor);
    const controllers = (config.controllers ?? []).filter(
      (c) => part === 'all' || everywhere(c) === (part === 'everywhere'),
    );
    if (controllers.length > 0) {
      // The runtime reads the objects again as it registers them: still the config's code, in
      // a site of its own, so that a getter that loops only from a later read is bounded too.
      monitor?.enter({ kind: 'config', file });
      try {
        await runtime.register(...controllers);
      } finally {
        monitor?.leave();
      }
    }
  } catch (error) {
    // A controller object of the user's that throws when it is read is the config's fault too.
    // Each problem of a refused registration is one of the error's, each shortened on its own
    // (its whole message, one list of all of them, would be cut in the middle).
    const problems = isRegistrationError(error)
      ? registrationProblems(error)
      : [`cannot register the controllers: ${messageOfThrown(error)}`];
    throw new ConfigError(file, problems, { cause: error });
  }
  if (part === 'everywhere') return;
  try {
    if (config.setup) {
      monitor?.enter({ kind: 'setup' });
      await withDeadline(
        Promise.resolve(config.setup(runtime)),
        userCodeWait(timeout, { kind: 'setup' }),
        (waited) => new Error(`it did not finish within ${waited}`),
      );
    }
  } catch (error) {
    // Where it failed in the project's code (a builder chain naming a type that is not there, a
    // throw of its own), as a controller's error is placed: the config's line, or the module's.
    const at = isSafeError(error) ? projectErrorLocator(loaded, cwd)?.(error) : undefined;
    const message = setupErrorMessage(messageOfThrown(error));
    // A type or function imported under a name its module does not export is undefined here.
    const importHint = mayBeUndefinedImport(message)
      ? localImportHint(
          [
            ...(at === undefined ? [] : [path.resolve(cwd, at.file)]),
            loaded.file,
            ...(loaded.sources ?? []),
          ],
          path.dirname(loaded.file),
        )
      : '';
    throw new ConfigError(file, `setup failed: ${message}${importHint}`, {
      cause: error,
      ...(at === undefined
        ? {}
        : { line: at.line, col: at.col, ...(at.file === file ? {} : { file: at.file }) }),
    });
  } finally {
    monitor?.leave();
  }
}

/** Each problem of a refused registration, as a sentence of its own. */
function registrationProblems(error: RegistrationError): string[] {
  // From another copy of cosi (recognised by its code) the list may be missing: its message then.
  const problems: unknown = error.problems;
  return Array.isArray(problems) && problems.length > 0
    ? problems.map((p) => `cannot register the controllers: ${String(p)}`)
    : [error.message];
}
