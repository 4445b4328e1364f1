import type { WriteOp } from '../../engine/record/run-record.js';
import type { LogRecord } from '../../engine/runtime/logger.js';
import type { ProjectFingerprint } from '../../app/project-fingerprint.js';
import type { ReconcileFailure, ReconcileResult } from '../../app/reconcile-tracker.js';
import type { ReapplyResult, RuntimeFigures, ServeStart } from '../../app/served-runtime.js';

/**
 * What crosses between `cosi run` and the worker thread its runtime runs in (see
 * `supervised-runtime.ts`): the worker is started with the `ServeRequest` as its data; the
 * main thread keeps the signals, the endpoints, the leader election and the log, and the
 * worker sends what they need as data.
 */
export type FromRunWorker =
  /** The project loaded (config, controllers, manifests): it waits for `proceed` to go on. */
  | { readonly kind: 'loaded' }
  | { readonly kind: 'started'; readonly start: ServeStart }
  | { readonly kind: 'start-failed'; readonly error: CrossedError }
  /** Log records and reconcile counts, gathered over a turn of the worker's event loop. */
  | { readonly kind: 'events'; readonly logs: readonly LogRecord[]; readonly counts: CountBatch }
  /** The runtime asks to lead (its manager's `elect`); `cancel` when it no longer does. */
  | { readonly kind: 'elect'; readonly id: number; readonly fingerprint: ProjectFingerprint }
  | { readonly kind: 'elect-cancel'; readonly id: number }
  | { readonly kind: 'leading'; readonly controllers: number }
  | { readonly kind: 'converged'; readonly problems: readonly string[] }
  | { readonly kind: 'lead-failed'; readonly error: CrossedError }
  /** The answer to a request of the main thread's (`reapply`, `figures`). */
  | { readonly kind: 'answer'; readonly id: number; readonly value: ReapplyResult | RuntimeFigures }
  | { readonly kind: 'answer-failed'; readonly id: number; readonly error: CrossedError }
  | { readonly kind: 'stopped' };

export type ToRunWorker =
  /** The loaded project may go on: apply the manifests, start the controllers. */
  | { readonly kind: 'proceed' }
  | { readonly kind: 'elected'; readonly id: number }
  | { readonly kind: 'elect-failed'; readonly id: number; readonly error: CrossedError }
  | { readonly kind: 'reapply'; readonly id: number }
  | { readonly kind: 'figures'; readonly id: number }
  | { readonly kind: 'stop' };

/**
 * Reconciles as `[controller, result, seconds, retried, failure]` and writes as
 * `[controller, op]`, in order; with `ServeRequest.queueMetrics`, what the queues did: items
 * added as `[controller, count]`, taken as `[controller, seconds waited]`, done as
 * `[controller, seconds worked]`.
 */
export interface CountBatch {
  readonly reconciles: readonly (readonly [
    string,
    ReconcileResult,
    number,
    boolean,
    ReconcileFailure | undefined,
  ])[];
  readonly writes: readonly (readonly [string, WriteOp])[];
  readonly adds: readonly (readonly [string, number])[];
  readonly taken: readonly (readonly [string, number])[];
  readonly done: readonly (readonly [string, number])[];
}

/**
 * An error as it crosses: its message, its refusal code when it is a `ServeRefusal`, and the
 * stable code it carries (`fingerprint-mismatch`), if any.
 */
export interface CrossedError {
  readonly message: string;
  readonly refusal?: string;
  readonly code?: string;
}

/** The stable code an error carries (its `code` property, a string), if any. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { readonly code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** An error that crossed, with its message and its code again. */
export function codedError(crossed: CrossedError): Error {
  const error = new Error(crossed.message);
  return crossed.code === undefined ? error : Object.assign(error, { code: crossed.code });
}
