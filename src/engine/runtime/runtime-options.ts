import type { KubernetesKind } from '../resource/definition.js';
import type { RunRecorder } from '../record/run-record.js';
import type { BackoffOptions } from './backoff.js';
import type { Clock } from './clock.js';
import type { ErrorLocator } from './error-record.js';
import type { LogSink } from './logger.js';
import type { QueueMetricsSink } from './queue-metrics.js';
import type { ChangeRateLimit } from './rate-limiter.js';
import type { ReconcileStartListener } from './runtime-host.js';

/** Options of `createRuntime`: the clock, logging, backoff, a change rate limit and a run recorder. */
export interface RuntimeOptions {
  /** Defaults to the wall clock; use a `SimulatedClock` for reproducible runs. */
  readonly clock?: Clock;
  /** Where controller logs go; silent without one. */
  readonly logSink?: LogSink;
  /** Restart and per-item backoff; COSI's defaults (500 ms, x1.5, max 60 s). */
  readonly backoff?: BackoffOptions;
  /**
   * Limits how fast each controller writes, each with a limiter of its own (COSI's
   * `WithChangeRateLimit`): a controller that writes in a hot loop cannot flood the state.
   * Unlimited by default.
   *
   * @example
   * createRuntime(state, { changeRateLimit: { limit: 10, burst: 20 } });
   */
  readonly changeRateLimit?: ChangeRateLimit;
  /**
   * Records every reconcile: what triggered it, what it read and wrote, how it ended (for
   * `cosi explain` and `--trace`). None by default, and then recording costs nothing.
   *
   * @example
   * const record = new RunRecord({ now: () => clock.now() });
   * createRuntime(state, { clock, recorder: record });
   */
  readonly recorder?: RunRecorder;
  /**
   * Told what each controller's queue does, as it happens: an item added, taken after waiting,
   * done after being worked on (a whole-world controller's queue is its owed pass). For
   * `cosi run`'s `workqueue_*` metrics; none by default, and then nothing is measured.
   */
  readonly queueMetrics?: QueueMetricsSink;
  /**
   * Finds where in the project's code a controller's error was thrown: the report's error
   * records then carry a `location`. None by default (the engine knows no files).
   */
  readonly locateError?: ErrorLocator;
  /**
   * Told as each reconcile (or mapping) starts, before the controller's code runs: which
   * controller, on which item (none for a whole-world pass). For a supervisor that must name the
   * code that stopped answering (cosi's worker heartbeat); keep it cheap, it runs on every one.
   */
  readonly onReconcileStart?: ReconcileStartListener;
  /**
   * How many independent writes a generic controller (transform) keeps under way at once; 1 by
   * default, one after another. In memory a write is done when it is called, so more only
   * reorders them; a state behind I/O (etcd) spends a round trip on each, and `cosi run` on etcd
   * keeps 32 in flight. Writes of one controller to one resource stay in order.
   */
  readonly writesInFlight?: number;
  /**
   * The Kubernetes identity of a type (its definition's `kubernetes`), for the rules of
   * controller-runtime that depend on it: a controller may not write a cluster-scoped resource
   * (kept in a placeholder namespace) with an owner reference to a namespaced type, as
   * `SetControllerReference` refuses it; and a builder's predicates see no generation (0) on a
   * kind the API server keeps none for (`generation: false`: ConfigMap, Secret, Service, ...), so
   * `generationChanged` drops their updates as on a cluster. Without it, every type is a
   * namespaced one with a generation (cosi's own are); `cosi` passes its project's definitions.
   *
   * @example
   * createRuntime(state, { kubernetesKind: (type) => registry.get(type)?.kubernetes });
   */
  readonly kubernetesKind?: (type: string) => KubernetesKind | undefined;
}
