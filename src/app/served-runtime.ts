import { toError } from '../engine/errors.js';
import type { Runtime } from '../engine/runtime/runtime.js';
import { formatPointer } from '../engine/resource/pointer.js';
import type { LogRecord } from '../engine/runtime/logger.js';
import type { QueueMetricsSink, QueueWorkload } from '../engine/runtime/queue-metrics.js';
import type { Finding } from '../loaders/finding.js';
import type { KubernetesRelease } from '../loaders/kubernetes/kubernetes-release.js';
import type { StateFigures } from './run-metrics.js';
import { openState } from './open-state.js';
import type { ProjectFingerprint } from './project-fingerprint.js';
import { createReconcileTracker, type ReconcileCounts } from './reconcile-tracker.js';
import { formatDuration } from './format-duration.js';
import { serveProject, type ApplyCounts, type ServedProject } from './serve-project.js';
import { refusalOf } from './serve-refusal.js';
import type { StateLocation } from './state-url.js';
import type { UserCodeMonitor } from './user-code-site.js';
import { waitingInstancesLogger } from './waiting-instances-log.js';

/**
 * What `cosi run` asks of the runtime it serves: plain data, the same whether the runtime runs in
 * this thread or in a worker thread (where it is the worker's `workerData`).
 */
export interface ServeRequest {
  /** The manifest paths; given none, those the config names. */
  readonly files: readonly string[];
  /** Refuse to start when neither `files` nor the config name any manifests. */
  readonly requireManifests?: boolean;
  readonly cwd: string;
  readonly config?: string;
  readonly ignore?: readonly string[];
  /** `--definitions`, `--schema-location`, `--schema-cache`, `--kubernetes-version`. */
  readonly definitionPaths?: readonly string[];
  readonly schemaLocations?: readonly string[];
  readonly schemaCache?: string;
  readonly kubernetesVersion?: KubernetesRelease;
  readonly location: StateLocation;
  /** How the state is named in messages (`etcd://127.0.0.1:2379/demo`). */
  readonly stateName: string;
  /** Wall ms a request to etcd may wait. */
  readonly requestTimeout: number;
  /** Wall ms etcd has to answer at start. */
  readonly connectTimeout: number;
  /** `host/pid`, written in the project's fingerprint. */
  readonly identity: string;
  /** Pass the controllers' info and debug records on too (warnings and errors always). */
  readonly verbose: boolean;
  /**
   * Wall ms the project's code may run without an end: a reconcile still running after it is
   * logged (once); a `setup` is failed.
   */
  readonly timeout: number;
  /** Writes under way at once (etcd: 32); see `ServeProjectOptions`. */
  readonly writesInFlight?: number;
  /** The largest request the state takes (etcd's), bytes. */
  readonly maxRequestBytes?: number;
  /**
   * Measure what each controller's queue does (`--metrics-addr`'s `workqueue_*` metrics), told
   * to `ServeHooks.counts`; off, the queues measure nothing.
   */
  readonly queueMetrics?: boolean;
}

/** What the served runtime tells, and asks, the process that serves it. */
export interface ServeHooks {
  /**
   * Reconciles and writes, as they end, and what the queues do (with `ServeRequest.queueMetrics`):
   * the metrics.
   */
  readonly counts: ReconcileCounts & QueueMetricsSink;
  /** The controllers' log records (filtered by `verbose`), and cosi's about them. */
  readonly onLog: (record: LogRecord) => void;
  /** Resolves once this process may lead (leader election); absent: it leads at once. */
  readonly elect?: (signal: AbortSignal, fingerprint: ProjectFingerprint) => Promise<void>;
  /** This process leads: its `controllers` (that many) run. */
  readonly onLeading: (controllers: number) => void;
  /**
   * The leader's controllers had nothing left to do, the first time; `problems` (see
   * {@link RuntimeFigures.problems}) says what is not well then: empty when they converged.
   */
  readonly onConverged: (problems: readonly string[]) => void;
  /**
   * It could not lead: the election failed, or the leader's controllers could not be registered
   * (a `ServeRefusal` with code `config`).
   */
  readonly onLeadFailed: (error: Error) => void;
  /**
   * The runtime's thread was stopped by a fault of the project's code (a loop that never
   * yields, the heap exhausted, an exit cosi could not catch): only a runtime in a worker thread
   * has these. It is gone: the process stops.
   */
  readonly onFault?: (fault: RuntimeFault) => void;
  /** Told when the project's code runs (the worker's heartbeat). */
  readonly monitor?: UserCodeMonitor;
  /**
   * Awaited once the config, its controllers and the manifests loaded without errors, before the
   * state is asked anything (see `ServeProjectOptions.loaded`); the start goes on once it
   * resolves, and ends with its error when it rejects.
   */
  readonly loaded?: () => Promise<void>;
}

/** What stopped the thread a runtime ran in, for a log line. */
export interface RuntimeFault {
  readonly message: string;
  /** `user-code-stuck`, `out-of-memory`, `process-exit` or `worker-crashed`. */
  readonly code: string;
  readonly controller?: string;
  /** The resource it was reconciling (`VMs.example.org(default/web-1)`). */
  readonly resource?: string;
}

/** How a start ended: running, or refused for the manifests' errors. */
export type ServeStart =
  | {
      readonly kind: 'started';
      /** The paths served (`ServedProject.files`): the manifests' and the definitions'. */
      readonly files: readonly string[];
      /** The project's scripts the config loaded (itself, the modules it imports). */
      readonly scripts: readonly string[];
      readonly applied: ApplyCounts;
      /** Resources left out: too large for the state. */
      readonly skipped: readonly Finding[];
    }
  | { readonly kind: 'refused'; readonly findings: readonly Finding[] }
  /** Stopped before the start completed. */
  | { readonly kind: 'stopped' };

/**
 * What `cosi run --watch` gets of an apply of the files again: what it applied, the manifests'
 * errors (nothing applied), or that their definitions changed (nothing applied: a new start of
 * the runtime loads and applies them).
 */
export type ReapplyResult =
  | { readonly applied: ApplyCounts; readonly skipped: readonly Finding[] }
  | { readonly findings: readonly Finding[] }
  | { readonly definitionsChanged: true };

/** What the metrics read of the runtime when scraped. */
export interface RuntimeFigures {
  readonly controllers: readonly ({ readonly name: string } & QueueWorkload)[];
  /** The state's own request counts (etcd). */
  readonly state?: StateFigures;
  /**
   * What keeps the leader's controllers from being well now, one line each: an input watch that
   * is down (it failed and is tried again), a controller that is failing (in backoff after an
   * error, or given up). Empty when all is well or nothing runs yet.
   */
  readonly problems?: readonly string[];
}

/** A runtime `cosi run` serves, here or in a worker thread. */
export interface ServedRuntime {
  /**
   * Resolves once the manifests are applied and the controllers started (or refused); rejects
   * with a `ServeRefusal` for what the operator must fix (the config, an unreachable etcd,
   * another project's state), with another error when the state failed.
   */
  readonly started: Promise<ServeStart>;
  /** Reads the manifests again and applies their difference (once started). */
  reapply(): Promise<ReapplyResult>;
  /** The controllers' queue depths and the state's figures now. */
  figures(): Promise<RuntimeFigures>;
  /**
   * Stops the controllers and closes the state, at any time: a start still under way is stopped
   * once it completes.
   */
  stop(): Promise<void>;
  /** Ends what {@link stop} left running once its bound has passed (a worker thread). */
  abandon(): Promise<void>;
}

/**
 * Serves the project of `request` in this thread: loads the config and the manifests, asks etcd
 * once whether it is there (within `connectTimeout`), applies the manifests, starts the controllers (the leader's
 * once `elect` resolves) and tracks their reconciles. This is also what the worker thread of
 * `cosi run` runs (see `run-worker.ts`).
 */
export function serveRuntime(request: ServeRequest, hooks: ServeHooks): ServedRuntime {
  const opened = openState(request.location, { requestTimeout: request.requestTimeout });
  const tracker = createReconcileTracker({
    counts: hooks.counts,
    stallAfter: request.timeout,
    onStall: ({ controller, pointer, ms }) => {
      hooks.onLog({
        level: 'error',
        message: `reconcile still running after ${formatDuration(ms)} (a promise that never settles?): the controller waits on it`,
        time: Date.now(),
        fields: {
          controller,
          ...(pointer ? { resource: formatPointer(pointer) } : {}),
          code: 'reconcile-stalled',
        },
      });
    },
  });
  let served: ServedProject | undefined;
  let stopping = false;
  /** Logs the kro RGD instances that stay in progress, once the runtime settled. */
  let logWaiting: (() => Promise<void>) | undefined;
  // Settled: what is not well is said, then each instance that waits (as `cosi apply` warns).
  const converged = (runtime: Runtime): void => {
    hooks.onConverged(runtimeProblems(runtime));
    // A state that cannot be read now (etcd gone) says so elsewhere: the warnings wait.
    logWaiting?.().catch(() => undefined);
  };
  const { elect, monitor } = hooks;
  /** Once the project loaded: an etcd starting beside this process (refusing) is waited for. */
  const probe = async (): Promise<void> => {
    if (opened.etcd) {
      await opened.etcd.probe(request.connectTimeout, undefined, {
        wait: true,
        onWait: (failure) =>
          hooks.onLog({
            level: 'info',
            message: `waiting for etcd at ${request.location.kind === 'etcd' ? request.location.endpoint.replace(/^https?:\/\//, '') : ''}: ${failure.reason}; trying again until --connect-timeout (${formatDuration(request.connectTimeout)}) has passed`,
            time: Date.now(),
            fields: {},
          }),
      });
    }
  };
  const start = async (): Promise<ServeStart> => {
    const result = await serveProject({
      files: [...request.files],
      ...(request.requireManifests ? { requireManifests: true } : {}),
      cwd: request.cwd,
      state: opened.state,
      stateName: request.stateName,
      identity: request.identity,
      recorder: tracker,
      ...(request.queueMetrics === true ? { queueMetrics: hooks.counts } : {}),
      timeout: request.timeout,
      ...(elect ? { elect } : {}),
      ...(monitor ? { monitor } : {}),
      loaded: async () => {
        await hooks.loaded?.();
        await probe();
      },
      ...(request.config !== undefined ? { config: request.config } : {}),
      ...(request.ignore !== undefined ? { ignore: [...request.ignore] } : {}),
      ...(request.definitionPaths !== undefined
        ? { definitionPaths: [...request.definitionPaths] }
        : {}),
      ...(request.schemaLocations !== undefined
        ? { schemaLocations: [...request.schemaLocations] }
        : {}),
      ...(request.schemaCache !== undefined ? { schemaCache: request.schemaCache } : {}),
      ...(request.kubernetesVersion !== undefined
        ? { kubernetesVersion: request.kubernetesVersion }
        : {}),
      ...(request.writesInFlight !== undefined
        ? { applyConcurrency: request.writesInFlight, writesInFlight: request.writesInFlight }
        : {}),
      ...(request.maxRequestBytes !== undefined
        ? { maxRequestBytes: request.maxRequestBytes }
        : {}),
      ...(opened.etcd ? { appliedSet: opened.etcd } : {}),
      onLog: (record) => {
        if (request.verbose || record.level === 'warn' || record.level === 'error') {
          hooks.onLog(record);
        }
      },
    });
    if (!('project' in result)) return { kind: 'refused', findings: result.findings };
    // Stopped while it started: what started is stopped as soon as it is there.
    if (stopping) {
      await result.stop();
      return { kind: 'stopped' };
    }
    served = result;
    const { runtime } = result.project;
    logWaiting = waitingInstancesLogger(result.project, hooks.onLog);
    result.elected.then(
      () => {
        hooks.onLeading(runtime.controllerNames().length);
        // Stopped before it settled: there is nothing to say.
        result.settle().then(
          () => converged(runtime),
          () => undefined,
        );
      },
      (error: unknown) => hooks.onLeadFailed(refusalOf(error) ?? toError(error)),
    );
    return {
      kind: 'started',
      files: result.files,
      scripts: result.scripts,
      applied: result.applied,
      skipped: result.skipped,
    };
  };
  const started = start().catch((error: unknown) => {
    throw refusalOf(error) ?? toError(error);
  });
  // A start ended by a stop fails with nobody left to hear it.
  started.catch(() => undefined);
  return {
    started,
    reapply: async () => {
      if (!served) throw new Error('not started');
      const { runtime } = served.project;
      return served.reapply((applied) => {
        // A change applied is converged on again (or not), as the first apply was.
        if (changed(applied)) converged(runtime);
      });
    },
    figures: () => {
      const runtime = served?.project.runtime;
      // The config's every controller, from the start: a follower's series are there at 0, as
      // controller-runtime's are before its leader election (the registered ones, beside them).
      const names = [
        ...new Set([...(served?.controllerNames ?? []), ...(runtime?.controllerNames() ?? [])]),
      ];
      return Promise.resolve({
        controllers: names.map((name) => ({
          name,
          ...(runtime?.workload(name) ?? NO_WORKLOAD),
        })),
        ...(opened.etcd ? { state: opened.etcd.figures() } : {}),
        problems: runtime ? runtimeProblems(runtime) : [],
      });
    },
    stop: async () => {
      stopping = true;
      tracker.stop();
      try {
        await served?.stop();
      } finally {
        await opened.close();
      }
    },
    abandon: () => Promise.resolve(),
  };
}

/** A controller that does not run here (yet): nothing waiting, nothing under way. */
const NO_WORKLOAD: QueueWorkload = {
  depth: 0,
  activeWorkers: 0,
  maxWorkers: 0,
  unfinishedSeconds: 0,
  longestSeconds: 0,
};

/** Whether an apply created, updated or removed anything. */
function changed(counts: ApplyCounts): boolean {
  return counts.created + counts.updated + counts.removed > 0;
}

/**
 * What is not well in `runtime` now, one line each (see {@link RuntimeFigures.problems}): the
 * input watches that are down, then the controllers that are failing, as `cosi apply` counts them
 * (in backoff after an error, or given up), with their last error.
 */
export function runtimeProblems(runtime: Runtime): string[] {
  const problems = runtime
    .watchesDown()
    .map(
      ({ kind, error }) =>
        `the watch of ${kind.type} (namespace ${JSON.stringify(kind.namespace)}) is down: ${error.message}`,
    );
  for (const name of runtime.controllerNames()) {
    const status = runtime.status(name);
    if (status?.condition !== 'backoff' && status?.condition !== 'failed') continue;
    const why = status.lastError ? `: ${status.lastError.message}` : '';
    problems.push(`controller ${name} is failing${why}`);
  }
  return problems;
}
