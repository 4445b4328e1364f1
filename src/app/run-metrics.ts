import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { WriteOp } from '../engine/record/run-record.js';
import type { ReconcileCounts, ReconcileResult } from './reconcile-tracker.js';

/** What the metrics read when they are scraped: the runtime and the state as they are then. */
export interface RunMetricsSources {
  /** The controllers registered now. */
  controllers(): readonly string[];
  /** Items waiting in a queue controller's queue (0 for a whole-world controller). */
  queueDepth(controller: string): number;
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
 * `cosi run`'s Prometheus metrics, named as controller-runtime's manager names them
 * (`controller_runtime_reconcile_total`, `..._errors_total`, `..._time_seconds`,
 * `workqueue_depth`, `leader_election_master_status`), with cosi's own beside them (state writes
 * per controller, the state's requests) and Node's process metrics.
 *
 * Reconciles are counted as they end (it is the {@link ReconcileCounts} of the run's
 * `createReconcileTracker`, or of the messages of the worker the run is in); queue depth,
 * leadership and the state's figures are read when scraped.
 */
export class RunMetrics implements ReconcileCounts {
  readonly registry = new Registry();
  readonly #reconciles: Counter<'controller' | 'result'>;
  readonly #errors: Counter<'controller'>;
  readonly #duration: Histogram<'controller'>;
  readonly #writes: Counter<'controller' | 'op'>;
  readonly #retries: Counter<'name'>;

  constructor(sources: RunMetricsSources) {
    const registers = [this.registry];
    // Every controller's series exist from its start at 0, as controller-runtime initialises
    // them: `rate(...errors_total[5m])` has a value before the first error, not nothing.
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
    this.#errors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Reconciles that failed, per controller',
      labelNames: ['controller'],
      registers,
      collect() {
        for (const controller of sources.controllers()) this.inc({ controller }, 0);
      },
    });
    this.#duration = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'How long a reconcile took, per controller',
      labelNames: ['controller'],
      buckets: [...RECONCILE_BUCKETS],
      registers,
    });
    this.#writes = new Counter({
      name: 'cosi_controller_state_writes_total',
      help: 'Writes to the state per controller, by operation',
      labelNames: ['controller', 'op'],
      registers,
    });
    this.#retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Items put back in a work queue through its rate limiter (an error retried, a requeue)',
      labelNames: ['name'],
      registers,
      collect() {
        for (const name of sources.controllers()) this.inc({ name }, 0);
      },
    });
    new Gauge({
      name: 'workqueue_depth',
      help: 'Items waiting in a queue controller work queue',
      labelNames: ['name'],
      registers,
      collect() {
        this.reset();
        for (const name of sources.controllers()) this.set({ name }, sources.queueDepth(name));
      },
    });
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
  reconciled(controller: string, result: ReconcileResult, seconds: number, retried = false): void {
    this.#duration.observe({ controller }, seconds);
    this.#reconciles.inc({ controller, result });
    if (result === 'error') this.#errors.inc({ controller });
    if (retried) this.#retries.inc({ name: controller });
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
