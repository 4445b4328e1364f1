import type { QRuntime } from '../runtime/controller.js';
import type { Logger } from '../runtime/logger.js';
import { didYouMean } from '../did-you-mean.js';

/**
 * What handlers enqueue: controller-runtime's `reconcile.Request`, a namespace and an id. `type`
 * matters only for a controller without `for`, whose requests may name different types; with
 * `for`, every request is of the `for` type.
 */
export interface Request {
  readonly namespace: string;
  readonly id: string;
  readonly type?: string;
}

/** The request a reconciler receives, its type resolved. */
export interface ReconcileRequest {
  readonly namespace: string;
  readonly id: string;
  readonly type: string;
}

/**
 * What a reconcile asks for next. Returning nothing (or `{}`) means done.
 *
 * - `requeueAfter` (ms): reconcile this request again after that long, without counting a
 *   failure; it wins over `requeue`, as in controller-runtime.
 * - `requeue: true`: reconcile it again after the controller's backoff delay (its `rateLimiter`),
 *   which grows with every consecutive `requeue` and starts over after a result without one:
 *   controller-runtime's rate-limited requeue, without counting a failure.
 */
export interface Result {
  readonly requeueAfter?: number;
  readonly requeue?: boolean;
}

/** What a reconciler sees of the engine. */
export interface ReconcileContext {
  /** The controller's guarded view of the state: reads of its inputs, writes of its outputs. */
  readonly client: QRuntime;
  /** Carries the controller's name and the request. */
  readonly log: Logger;
  /**
   * Aborted when the controller stops, or when the reconcile runs longer than the controller's
   * `reconciliationTimeout` (on the runtime's clock; the reason is then a `TimeoutError`). Pass
   * it on to whatever waits; a reconcile that ignores it is not interrupted.
   */
  readonly signal: AbortSignal;
}

/**
 * A reconcile function: resolve to a result (or nothing), or throw. `Promise<void>` lets an async
 * method without `return` be a reconciler too.
 */
export type ReconcileFunc = (
  ctx: ReconcileContext,
  request: ReconcileRequest,
) => Promise<Result | undefined> | Promise<void> | Result | undefined;

/**
 * controller-runtime's `Reconciler`: an object with `reconcile`, or just the function.
 *
 * - resolves to nothing or `{}`: done;
 * - resolves to `{ requeueAfter: ms }`: comes back after `ms` on the runtime's clock;
 * - resolves to `{ requeue: true }`: comes back after the controller's backoff delay;
 * - throws: retried with per-request exponential backoff;
 * - throws {@link terminalError}: recorded, not retried.
 */
export type Reconciler = { reconcile: ReconcileFunc } | ReconcileFunc;

const RESULT_KEYS = ['requeue', 'requeueAfter'] as const;

/**
 * Why a reconcile's result cannot be what was meant, or `undefined` when it reads as a
 * {@link Result}. Configs run without a type check, so `{ RequeueAfter: 30000 }` (the Go field),
 * `{ requeueAfter: '30s' }` or `{ requeue: 'true' }` reached the engine and meant "done": the
 * requeue asked for never came, and nothing said why. A key close to neither is left alone (a
 * reconciler may return what its last write resolved to).
 */
export function resultProblem(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const problems: string[] = [];
  for (const key of Object.keys(result)) {
    if ((RESULT_KEYS as readonly string[]).includes(key)) continue;
    const near = didYouMean(key, RESULT_KEYS);
    if (near !== undefined)
      problems.push(`unknown key ${JSON.stringify(key)} (did you mean ${near}?)`);
  }
  const { requeueAfter, requeue } = result as Record<string, unknown>;
  if (
    requeueAfter !== undefined &&
    !(typeof requeueAfter === 'number' && Number.isFinite(requeueAfter))
  ) {
    problems.push(
      `requeueAfter must be a finite number of ms, got ${describeResultValue(requeueAfter)}`,
    );
  }
  if (requeue !== undefined && typeof requeue !== 'boolean') {
    problems.push(`requeue must be true or false, got ${describeResultValue(requeue)}`);
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

function describeResultValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Calls either form of reconciler; a synchronous throw becomes a rejection. */
export async function callReconciler(
  reconciler: Reconciler,
  ctx: ReconcileContext,
  request: ReconcileRequest,
): Promise<Result | undefined> {
  const outcome = await (typeof reconciler === 'function'
    ? reconciler(ctx, request)
    : reconciler.reconcile(ctx, request));
  return outcome ?? undefined;
}
