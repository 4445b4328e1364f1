import { formatPointer, type Pointer } from '../resource/pointer.js';

/**
 * Thrown by a queue controller's `reconcile` to come back after `interval` ms. Not counted as a
 * failure unless it wraps an error.
 */
export class RequeueError extends Error {
  readonly code = 'requeue';
  constructor(
    readonly interval: number,
    override readonly cause?: unknown,
  ) {
    super(
      cause === undefined
        ? `requeue in ${interval} ms`
        : `requeue in ${interval} ms: ${cause instanceof Error ? cause.message : JSON.stringify(cause)}`,
    );
    this.name = 'RequeueError';
  }
}

/** Come back in `interval` ms, without an error. */
export const requeueAfter = (interval: number): RequeueError => new RequeueError(interval);

/**
 * Tells the engine (or a generic controller) to leave an item alone this round: no retry, no
 * failure, the backoff is cleared. COSI's `SkipReconcileTag`.
 */
export class SkipError extends Error {
  readonly code = 'skip';
  constructor(message = 'skipped') {
    super(message);
    this.name = 'SkipError';
  }
}

/*
 * Predicates test the stable `code`, not the class: a project's config may load its own copy of
 * this module, and its errors must still be understood.
 */
const hasCode = (err: unknown, code: string): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;

export const isSkip = (err: unknown): err is SkipError => hasCode(err, 'skip');

/**
 * An error that retrying will not fix (controller-runtime's terminal error): a queue controller
 * that throws one for an item records the failure, shows it in the report, and does not retry the
 * item until its next event. Any error with `code: 'terminal'` counts, such as the builder's.
 */
export const isTerminal = (err: unknown): err is Error =>
  hasCode(err, 'terminal') && err instanceof Error;
export const isRequeue = (err: unknown): err is RequeueError =>
  hasCode(err, 'requeue') && typeof (err as { interval?: unknown }).interval === 'number';

/** A controller read or wrote outside its declaration. */
export class AccessError extends Error {
  readonly code = 'access-denied';
  constructor(
    readonly controller: string,
    readonly pointer: Pointer,
    readonly rule: 'read' | 'write' | 'finalizer',
    message: string,
  ) {
    super(message);
    this.name = 'AccessError';
  }
}

export function readDenied(controller: string, p: Pointer, listing: boolean): AccessError {
  const what = listing ? `list ${p.namespace}/${p.type}` : `read ${formatPointer(p)}`;
  return new AccessError(
    controller,
    p,
    'read',
    `controller ${JSON.stringify(controller)} may not ${what}: it is neither an input nor an output${listing ? ' (listing needs an input without an id)' : ''}`,
  );
}

export function writeDenied(controller: string, p: Pointer, op: string): AccessError {
  return new AccessError(
    controller,
    p,
    'write',
    `controller ${JSON.stringify(controller)} may not ${op} ${formatPointer(p)}: ${p.type} is not one of its outputs`,
  );
}

export function finalizerDenied(controller: string, p: Pointer): AccessError {
  return new AccessError(
    controller,
    p,
    'finalizer',
    `controller ${JSON.stringify(controller)} may not change finalizers of ${formatPointer(p)}: it is not a strong (or queue primary / mapped) input`,
  );
}

/** Registration refused; nothing of the batch was registered. Lists every problem found. */
export class RegistrationError extends Error {
  readonly code = 'registration';
  constructor(readonly problems: readonly string[]) {
    super(`cannot register controllers:\n  - ${problems.join('\n  - ')}`);
    this.name = 'RegistrationError';
  }
}

export const isAccessError = (err: unknown): err is AccessError => hasCode(err, 'access-denied');
export const isRegistrationError = (err: unknown): err is RegistrationError =>
  hasCode(err, 'registration');
