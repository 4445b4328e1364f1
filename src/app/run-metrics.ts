import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { WriteOp } from '../engine/record/run-record.js';
import type { QueueMetricsSink, QueueWorkload } from '../engine/runtime/queue-metrics.js';
import type { ReconcileCounts, ReconcileFailure, ReconcileResult } from './reconcile-tracker.js';

/** What the metrics read when they are scraped: the runtime and the state as they are then. */
export interface RunMetricsSources {
  /** The controllers registered now. */
  controllers(): readonly string[];
  /**
   * What a controller has waiting and under way now (its queue; a whole-world controller's is
   * its owed pass); none: nothing (a follower's controller, one not registered yet).
   */
  workload(controller: string): QueueWorkload | undefined;
  /** Whether this process leads (runs the leader's controllers). */
  leading(): boolean;
  /** The state's own figures, when it has some (etcd). */
  readonly state?: () => StateFigures;
}

/** Counts a state backend keeps of its requests (the etcd state's `figures()`). */
export interface StateFigures {
  readonly requests: number;
  readonly reads: number;
  readonly writes: number;
  readonly failedRequests: number;
  readonly inFlight: number;
  readonly watches: number;
}

/**
 * controller-runtime's reconcile-time buckets, cut at one minute: most reconciles take
 * milliseconds, a slow one on etcd seconds.
 */
const RECONCILE_BUCKETS = [
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
] as const;

/**
 * client-go's work queue buckets (10ns to 1000s, by tens), so that a dashboard's quantiles of
 * `workqueue_queue_duration_seconds` and `..._work_duration_seconds` read the same.
 */
const QUEUE_BUCKETS = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1000] as const;

/** The name leader election metrics carry, as controller-runtime labels its lock. */
const ELECTION_LABEL = 'cosi-run';

/** Every result a reconcile is counted by. */
const RECONCILE_RESULTS: readonly ReconcileResult[] = [
  'success',
  'error',
  'requeue',
  'requeue_after',
];

/**
 * `cosi run`'s Prometheus metrics, named as controller-runtime's manager names them (the
 * `controller_runtime_*` reconcile and worker metrics, the seven `workqueue_*` metrics labelled
 * `name` and `controller`, `leader_election_master_status`), with cosi's own beside them (state
 * writes per controller, the state's requests) and Node's process metrics.
 *
 * Reconciles are counted as they end (it is the {@link ReconcileCounts} of the run's
 * `createReconcileTracker`, or of the messages of the worker the run is in), and what each queue
 * does as it does it (the {@link QueueMetricsSink} of the runtime's `queueMetrics`); queue depth,
 * the work under way, leadership and the state's figures are read when scraped.
 */
export class RunMetrics implements ReconcileCounts, QueueMetricsSink {
  readonly registry = new Registry();
  readonly #reconciles: Counter<'controller' | 'result'>;
  readonly #errors: Counter<'controller'>;
  readonly #terminal: Counter<'controller'>;
  readonly #panics: Counter<'controller'>;
  readonly #duration: Histogram<'controller'>;
  readonly #writes: Counter<'controller' | 'op'>;
  readonly #retries: Counter<QueueLabel>;
  readonly #adds: Counter<QueueLabel>;
  readonly #waited: Histogram<QueueLabel>;
  readonly #worked: Histogram<QueueLabel>;

  constructor(sources: RunMetricsSources) {
    const registers = [this.registry];
    // Every controller's series exist from its start at 0, as controller-runtime initialises
    // them: `rate(...errors_total[5m])` has a value before the first error, not nothing.
    const perController = (name: string, help: string): Counter<'controller'> =>
      new Counter({
        name,
        help,
        labelNames: ['controller'],
        registers,
        collect() {
          for (const controller of sources.controllers()) this.inc({ controller }, 0);
        },
      });
    const perQueue = (name: string, help: string): Counter<QueueLabel> =>
      new Counter({
        name,
        help,
        labelNames: QUEUE_LABELS,
        registers,
        collect() {
          for (const controller of sources.controllers()) this.inc(queueLabels(controller), 0);
        },
      });
    /** A figure of each controller's workload, read when scraped. */
    const workloadGauge = <L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      labels: (controller: string) => Partial<Record<L, string>>,
      read: (w: QueueWorkload) => number,
    ): void => {
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          for (const controller of sources.controllers()) {
            const workload = sources.workload(controller);
            this.set(labels(controller), workload ? read(workload) : 0);
          }
        },
      });
    };
    this.#reconciles = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Reconciles per controller, by result (success, error, requeue, requeue_after)',
      labelNames: ['controller', 'result'],
      registers,
      collect() {
        for (const controller of sources.controllers()) {
          for (const result of RECONCILE_RESULTS) this.inc({ controller, result }, 0);
        }
      },
    });
    this.#errors = perController(
      'controller_runtime_reconcile_errors_total',
      'Reconciles that failed, per controller',
    );
    this.#terminal = perController(
      'controller_runtime_terminal_reconcile_errors_total',
      'Reconciles that failed with a terminal error (not retried), per controller',
    );
    this.#panics = perController(
      'controller_runtime_reconcile_panics_total',
      "Reconciles that failed by a fault of the controller's code (a TypeError, ReferenceError or RangeError, a call of process.exit), per controller",
    );
    this.#duration = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'How long a reconcile took, per controller',
      labelNames: ['controller'],
      buckets: [...RECONCILE_BUCKETS],
      registers,
    });
    const byController = (controller: string) => ({ controller });
    workloadGauge(
      'controller_runtime_active_workers',
      'Workers reconciling an item now, per controller',
      ['controller'],
      byController,
      (w) => w.activeWorkers,
    );
    workloadGauge(
      'controller_runtime_max_concurrent_reconciles',
      'Workers a controller runs at most (its concurrency; 1 for a whole-world controller)',
      ['controller'],
      byController,
      (w) => w.maxWorkers,
    );
    this.#writes = new Counter({
      name: 'cosi_controller_state_writes_total',
      help: 'Writes to the state per controller, by operation',
      labelNames: ['controller', 'op'],
      registers,
    });
    workloadGauge(
      'workqueue_depth',
      "Items ready in a controller's work queue, waiting for a worker (a whole-world controller: 1 while a pass is owed)",
      QUEUE_LABELS,
      queueLabels,
      (w) => w.depth,
    );
    this.#adds = perQueue(
      'workqueue_adds_total',
      "Items added to a controller's work queue (an add of an item already waiting in it is not counted)",
    );
    this.#waited = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: "How long an item waited in a controller's work queue, ready, before a worker took it",
      labelNames: QUEUE_LABELS,
      buckets: [...QUEUE_BUCKETS],
      registers,
    });
    this.#worked = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long a worker took over an item of the work queue (a reconcile, a mapping, a pass)',
      labelNames: QUEUE_LABELS,
      buckets: [...QUEUE_BUCKETS],
      registers,
    });
    workloadGauge(
      'workqueue_unfinished_work_seconds',
      'Seconds of work under way and not done yet, summed over the workers: one that keeps growing is a worker stuck',
      QUEUE_LABELS,
      queueLabels,
      (w) => w.unfinishedSeconds,
    );
    workloadGauge(
      'workqueue_longest_running_processor_seconds',
      'Seconds the longest-running item under way has been worked on',
      QUEUE_LABELS,
      queueLabels,
      (w) => w.longestSeconds,
    );
    this.#retries = perQueue(
      'workqueue_retries_total',
      'Items put back in a work queue through its rate limiter (an error retried, a requeue)',
    );
    new Gauge({
      name: 'leader_election_master_status',
      help: '1 while this process leads, 0 while it follows',
      labelNames: ['name'],
      registers,
      collect() {
        this.set({ name: ELECTION_LABEL }, sources.leading() ? 1 : 0);
      },
    });
    const state = sources.state;
    if (state) {
      /** A count the state keeps since it opened: a counter, set from it when scraped. */
      const total = (name: string, help: string, read: (f: StateFigures) => number): void => {
        new Counter({
          name,
          help,
          registers,
          collect() {
            this.reset();
            this.inc(read(state()));
          },
        });
      };
      const figure = (name: string, help: string, read: (f: StateFigures) => number): void => {
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(state()));
          },
        });
      };
      total('cosi_state_requests_total', 'Requests sent to the state backend', (f) => f.requests);
      total('cosi_state_reads_total', 'Reads sent to the state backend', (f) => f.reads);
      total('cosi_state_writes_total', 'Writes sent to the state backend', (f) => f.writes);
      total(
        'cosi_state_request_failures_total',
        'Requests to the state backend that failed or timed out',
        (f) => f.failedRequests,
      );
      figure('cosi_state_requests_in_flight', 'Requests waiting for an answer', (f) => f.inFlight);
      figure('cosi_state_watches', 'Watches open on the state backend', (f) => f.watches);
    }
    collectDefaultMetrics({ register: this.registry });
  }

  /** A reconcile ended (see `createReconcileTracker`, which times them). */
  reconciled(
    controller: string,
    result: ReconcileResult,
    seconds: number,
    retried = false,
    failure?: ReconcileFailure,
  ): void {
    this.#duration.observe({ controller }, seconds);
    this.#reconciles.inc({ controller, result });
    if (result === 'error') this.#errors.inc({ controller });
    if (failure === 'terminal') this.#terminal.inc({ controller });
    else if (failure === 'panic') this.#panics.inc({ controller });
    if (retried) this.#retries.inc(queueLabels(controller));
  }

  added(controller: string): void {
    this.#adds.inc(queueLabels(controller));
  }

  taken(controller: string, seconds: number): void {
    this.#waited.observe(queueLabels(controller), seconds);
  }

  done(controller: string, seconds: number): void {
    this.#worked.observe(queueLabels(controller), seconds);
  }

  /** A controller changed the state. */
  wrote(controller: string, op: WriteOp): void {
    this.#writes.inc({ controller, op });
  }

  /** The exposition text, and its content type. */
  async scrape(): Promise<{ readonly contentType: string; readonly body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

type QueueLabel = 'name' | 'controller';

/** controller-runtime labels each work queue series with its name and its controller's: the same. */
const QUEUE_LABELS: readonly QueueLabel[] = ['name', 'controller'];

function queueLabels(controller: string): Record<QueueLabel, string> {
  return { name: controller, controller };
}
