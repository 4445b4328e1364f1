import { isSafeError, messageOfThrown, readSafely, ThrownValueError } from './thrown-value.js';
import { formatPointer, samePointer, type Kind, type Pointer } from './resource/pointer.js';
import { findInChain } from './error-chain.js';

/**
 * The engine's error vocabulary: every error that crosses the line between the state, the
 * runtime, the generic controllers, the builder and a project's own controllers, each with a
 * stable `code`.
 *
 * - `not-found`: the resource does not exist ({@link NotFoundError}).
 * - `conflict`: the state refused a write; `reason` says which rule ({@link ConflictError}).
 * - `invalid-bookmark`: a watch cannot resume from that bookmark ({@link InvalidBookmarkError}).
 * - `buffer-overrun`: a watcher fell too far behind and lost events; carried by the `errored`
 *   event that ends its watch ({@link BufferOverrunError}).
 * - `access-denied`: a controller read or wrote outside its declaration ({@link AccessError}).
 * - `registration`: the runtime refused a batch of controllers ({@link RegistrationError}).
 * - `requeue`: come back in `interval` ms ({@link RequeueError}).
 * - `skip`: leave the item alone until its next event ({@link SkipError}).
 * - `terminal`: retrying will not help ({@link TerminalError}).
 * - `destroy-output`: a queue transform wants its output gone ({@link DestroyOutputError}).
 * - `reconcile-cycle`: every error of one pass of a whole-world generic controller
 *   ({@link ReconcileCycleError}).
 *
 * **Why predicates test `code` and not the class.** A project's `cosi.config.ts` is loaded with
 * its own module loader, and when the project has cosi installed it may get its own copy of this
 * module: a `RequeueError` thrown by its controller is then not an `instanceof` this file's class.
 * The stable `code` is the contract both copies keep, so {@link hasCode} is the one test, and
 * `instanceof` is never used on these errors.
 */
export type ErrorCode =
  | 'not-found'
  | 'conflict'
  | 'invalid-bookmark'
  | 'buffer-overrun'
  | 'history-compacted'
  | 'access-denied'
  | 'registration'
  | 'requeue'
  | 'skip'
  | 'terminal'
  | 'destroy-output'
  | 'reconcile-cycle';

/** Whether `error` is an `Error` carrying this stable {@link ErrorCode}. */
export function hasCode(
  error: unknown,
  code: ErrorCode,
): error is Error & { readonly code: string } {
  // Errors from users' code may be Proxies or have throwing getters: read without running them.
  return isSafeError(error) && readSafely(error, 'code') === code;
}

// State

/** Why a write conflicted. */
export type ConflictReason = 'exists' | 'version' | 'owner' | 'phase' | 'pending-finalizers';

/** The resource does not exist. */
export class NotFoundError extends Error {
  readonly code = 'not-found';
  constructor(readonly pointer: Pointer) {
    super(`resource ${formatPointer(pointer)} doesn't exist`);
    this.name = 'NotFoundError';
  }
}

/** A write that the current state does not allow; `reason` says which rule. */
export class ConflictError extends Error {
  readonly code = 'conflict';
  constructor(
    readonly pointer: Pointer,
    readonly reason: ConflictReason,
    message: string,
  ) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** Whether `error` is a {@link NotFoundError} (code `not-found`), from any copy of cosi. */
export const isNotFound = (error: unknown): error is NotFoundError => hasCode(error, 'not-found');

/** Any conflict: exists, version, owner, phase or pending finalizers. */
export const isConflict = (error: unknown): error is ConflictError => hasCode(error, 'conflict');

const isConflictFor = (error: unknown, reason: ConflictReason): error is ConflictError =>
  isConflict(error) && error.reason === reason;

/** Whether `error` is a conflict because the resource has another owner. */
export const isOwnerConflict = (error: unknown): error is ConflictError =>
  isConflictFor(error, 'owner');

/** Whether `error` is a conflict because the resource is not in the expected phase. */
export const isPhaseConflict = (error: unknown): error is ConflictError =>
  isConflictFor(error, 'phase');

/** A plain version (or exists) conflict, the kind a retry can fix. */
export const isRetryableConflict = (error: unknown): error is ConflictError =>
  isConflictFor(error, 'version') || isConflictFor(error, 'exists');

export function alreadyExists(p: Pointer): ConflictError {
  return new ConflictError(p, 'exists', `resource ${formatPointer(p)} already exists`);
}

export function versionConflict(p: Pointer, expected: number, found: number): ConflictError {
  return new ConflictError(
    p,
    'version',
    `resource ${formatPointer(p)} update conflict: expected version ${found}, got ${expected}`,
  );
}

export function ownerConflict(p: Pointer, owner: string, actual: string): ConflictError {
  return new ConflictError(
    p,
    'owner',
    `resource ${formatPointer(p)} is owned by ${JSON.stringify(actual)}, not ${JSON.stringify(owner)}`,
  );
}

export function phaseConflict(p: Pointer, expected: string, actual: string): ConflictError {
  return new ConflictError(
    p,
    'phase',
    `resource ${formatPointer(p)} is in phase ${actual}, expected ${expected}`,
  );
}

export function pendingFinalizers(p: Pointer, finalizers: readonly string[]): ConflictError {
  return new ConflictError(
    p,
    'pending-finalizers',
    `resource ${formatPointer(p)} has pending finalizers: ${finalizers.join(', ')}`,
  );
}

/**
 * Throws when an updater has changed what the state decides: which resource its draft names (its
 * namespace, type or id) or its version. A mistake in the updater, not a conflict: retrying would
 * call it again and make the same change (a version that never matches conflicts forever, a
 * renamed draft writes elsewhere). Also for the draft of a resource `modify` creates: renamed, it
 * would be created past the checks made on the one asked for (a controller's declared outputs),
 * over a resource already there.
 */
export function checkUpdaterDraft(
  current: Pointer & { readonly version: number },
  draft: Pointer & { readonly version: number },
): void {
  if (!samePointer(current, draft)) {
    throw new TypeError(
      `an updater of ${formatPointer(current)} changed which resource its draft names, to ${formatPointer(draft)}: an update may change a resource's data, not its namespace, type or id`,
    );
  }
  if (draft.version !== current.version) {
    throw new TypeError(
      `an updater of ${formatPointer(current)} changed its draft's version from ${current.version} to ${draft.version}: the state stamps versions`,
    );
  }
}

/**
 * A watch cannot resume from this bookmark: it comes from another state (or an earlier run of
 * this one), from another kind, or its event has already left the history.
 */
export class InvalidBookmarkError extends Error {
  readonly code = 'invalid-bookmark';
  constructor(readonly bookmark: string) {
    super(`invalid watch bookmark ${JSON.stringify(bookmark)}`);
    this.name = 'InvalidBookmarkError';
  }
}

/**
 * Whether `error` is an {@link InvalidBookmarkError} (code `invalid-bookmark`), from any copy of cosi.
 */
export const isInvalidBookmark = (error: unknown): error is InvalidBookmarkError =>
  hasCode(error, 'invalid-bookmark');

/**
 * A watcher fell more than the history's capacity behind the writes of a kind: the events it had
 * not read yet are gone, so its watch ends with this error.
 */
export class BufferOverrunError extends Error {
  readonly code = 'buffer-overrun';
  constructor(
    readonly kind: Kind,
    readonly behind: number,
    readonly capacity: number,
  ) {
    super(
      `buffer overrun: namespace ${JSON.stringify(kind.namespace)} type ${JSON.stringify(kind.type)}, ${behind} events behind, capacity ${capacity}`,
    );
    this.name = 'BufferOverrunError';
  }
}

/**
 * Whether `error` is a {@link BufferOverrunError} (code `buffer-overrun`), from any copy of cosi.
 */
export const isBufferOverrun = (error: unknown): error is BufferOverrunError =>
  hasCode(error, 'buffer-overrun');

/**
 * A watch of a backend whose history is cut by compaction (etcd) could not go on: the changes
 * it had not read yet were compacted away (after a long disconnect, say). Like an overrun, it
 * ends the watch with `errored`: the watcher must start over (list again, or bootstrap).
 */
export class HistoryCompactedError extends Error {
  readonly code = 'history-compacted';
  constructor(readonly revision: number) {
    super(`watch history compacted: the changes from revision ${revision} on are gone`);
    this.name = 'HistoryCompactedError';
  }
}

/**
 * Whether `error` is a {@link HistoryCompactedError} (code `history-compacted`), from any copy of cosi.
 */
export const isHistoryCompacted = (error: unknown): error is HistoryCompactedError =>
  hasCode(error, 'history-compacted');

// Runtime

/** A controller read or wrote outside its declaration. */
export class AccessError extends Error {
  readonly code = 'access-denied';
  constructor(
    readonly controller: string,
    readonly pointer: Pointer,
    readonly rule: 'read' | 'write' | 'finalizer',
    message: string,
    /**
     * What was refused, as the message says it (`read Type(ns/id)`, `list ns/Type`,
     * `modify Type(ns/id)`), for a caller that words the reason its own way (the builder).
     */
    readonly attempted?: string,
  ) {
    super(message);
    this.name = 'AccessError';
  }
}

/** Whether `error` is an {@link AccessError} (code `access-denied`), from any copy of cosi. */
export const isAccessError = (error: unknown): error is AccessError =>
  hasCode(error, 'access-denied');

/**
 * A read the controller did not declare: says what to declare, as the input a controller's
 * `inputs` takes (`pinned`: the ids its inputs of that type name, when they name only some).
 */
export function readDenied(
  controller: string,
  p: Pointer,
  listing: boolean,
  pinned: readonly string[] = [],
  inputKind: 'weak' | 'mapped' = 'weak',
): AccessError {
  const what = listing ? `list ${p.namespace}/${p.type}` : `read ${formatPointer(p)}`;
  const input = `{ namespace: ${quoted(p.namespace)}, type: ${quoted(p.type)}, kind: '${inputKind}' }`;
  const why =
    pinned.length === 0
      ? `it is neither an input nor an output (declare it among its inputs: ${input})`
      : `its inputs of ${p.type} name only ${pinned.map((id) => JSON.stringify(id)).join(', ')}${listing ? ` (listing needs an input without an id: ${input})` : ''}`;
  return new AccessError(
    controller,
    p,
    'read',
    `controller ${JSON.stringify(controller)} may not ${what}: ${why}`,
    what,
  );
}

/** A write to a type the controller did not declare as an output: says what to declare. */
export function writeDenied(controller: string, p: Pointer, op: string): AccessError {
  return new AccessError(
    controller,
    p,
    'write',
    `controller ${JSON.stringify(controller)} may not ${op} ${formatPointer(p)}: ${p.type} is not one of its outputs (declare it among its outputs: { type: ${quoted(p.type)}, kind: 'exclusive' })`,
    `${op} ${formatPointer(p)}`,
  );
}

/** A string as a TypeScript literal in single quotes, as a config writes it. */
function quoted(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/**
 * A write of a resource with an empty id: a manifest's is refused (`invalid-id`), so is a
 * controller's, which would otherwise be stored and listed as `""`.
 */
export function emptyIdDenied(controller: string, p: Pointer, op: string): AccessError {
  return new AccessError(
    controller,
    p,
    'write',
    `controller ${JSON.stringify(controller)} may not ${op} ${formatPointer(p)}: its id is empty`,
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

/**
 * A write of a cluster-scoped resource that references a namespace-scoped owner, which
 * controller-runtime's `SetControllerReference` / `SetOwnerReference` refuse: a reference names a
 * namespaced owner in the dependent's namespace, and a cluster-scoped resource has none (cosi keeps
 * it in a placeholder namespace, where the owner would only seem to be). A cluster-scoped owner
 * may own resources of any scope.
 */
export function namespacedOwnerDenied(
  controller: string,
  p: Pointer,
  op: string,
  owner: { readonly type: string; readonly id: string },
): AccessError {
  return new AccessError(
    controller,
    p,
    'write',
    `controller ${JSON.stringify(controller)} may not ${op} ${p.type} ${JSON.stringify(p.id)}: cluster-scoped resource must not have a namespace-scoped owner (its owner reference names ${owner.type} ${JSON.stringify(owner.id)})`,
  );
}

/**
 * Registration refused; nothing of the batch was registered. Lists every problem found. Also
 * what a controller's `updateInputs` throws for inputs it may not have, `refused` then naming it.
 */
export class RegistrationError extends Error {
  readonly code = 'registration';
  constructor(
    readonly problems: readonly string[],
    refused = 'cannot register controllers',
  ) {
    super(`${refused}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'RegistrationError';
  }
}

/** Whether `error` is a {@link RegistrationError} (code `registration`), from any copy of cosi. */
export const isRegistrationError = (error: unknown): error is RegistrationError =>
  hasCode(error, 'registration');

// What a controller throws to steer its own retries

/**
 * Thrown by a queue controller's `reconcile` to come back after `interval` ms. Not counted as a
 * failure unless it wraps an error.
 */
export class RequeueError extends Error {
  readonly code = 'requeue';
  /**
   * `interval` is the item's backoff, not one the controller asked for: a builder controller's
   * `{ requeue: true }` (controller-runtime's `Requeue: true`, as its metrics count it).
   */
  readonly rateLimited?: true;
  constructor(
    readonly interval: number,
    override readonly cause?: unknown,
    options: { readonly rateLimited?: boolean } = {},
  ) {
    super(
      cause === undefined
        ? `requeue in ${interval} ms`
        : `requeue in ${interval} ms: ${messageOfThrown(cause)}`,
    );
    this.name = 'RequeueError';
    if (options.rateLimited === true) this.rateLimited = true;
  }
}

/** Come back in `interval` ms, without an error. */
export const requeueAfter = (interval: number): RequeueError => new RequeueError(interval);

/** Whether `error` asks for the item to come back later ({@link RequeueError}). */
export const isRequeue = (error: unknown): error is RequeueError =>
  hasCode(error, 'requeue') && typeof (error as { interval?: unknown }).interval === 'number';

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

/** Whether `error` is a {@link SkipError}: the reconcile stops without counting as a failure. */
export const isSkip = (error: unknown): error is SkipError => hasCode(error, 'skip');

/**
 * An error that retrying will not fix (controller-runtime's terminal error): a queue controller
 * that throws one for an item records the failure, shows it in the report, and does not retry the
 * item until its next event.
 */
export class TerminalError extends Error {
  readonly code = 'terminal';
  constructor(override readonly cause: unknown) {
    super(`terminal error: ${messageOfThrown(cause)}`);
    this.name = 'TerminalError';
  }
}

/**
 * Wraps an error so the reconcile that throws it is not retried.
 *
 * @example
 * if (!valid(vm.spec)) throw terminalError(new Error('invalid spec'));
 */
export const terminalError = (error: unknown): TerminalError => new TerminalError(error);

/**
 * Whether `error` is a {@link TerminalError}, or wraps one (its `cause`, or one of an
 * `AggregateError`'s errors, at any depth): no retry. So `throw new Error('reconciling web', {
 * cause: terminalError(e) })` is terminal, as controller-runtime's `errors.Is(err,
 * reconcile.TerminalError(nil))` finds one wrapped with `%w`.
 */
export const isTerminal = (error: unknown): error is Error =>
  findInChain(error, (e) => hasCode(e, 'terminal')) !== undefined;

/**
 * Whether `error` is a fault of the code that threw it rather than an error it meant to return:
 * what Go panics with (a nil dereference, an index out of range) is a `TypeError`,
 * `ReferenceError` or `RangeError` here, and a call of `process.exit` is thrown where it was made
 * (code `process-exit`, by cosi's guard). `cosi run` counts reconciles that end with one as
 * controller-runtime counts the panics it recovers from.
 */
export function isCodeFault(error: unknown): boolean {
  if (!isSafeError(error)) return false;
  return (
    error instanceof TypeError ||
    error instanceof ReferenceError ||
    error instanceof RangeError ||
    readSafely(error, 'code') === 'process-exit'
  );
}

/**
 * Thrown by a queue transform's `transform` to have the output torn down and destroyed (once
 * other controllers' finalizers are gone) instead of written. COSI's `DestroyOutputTag`.
 */
export class DestroyOutputError extends Error {
  readonly code = 'destroy-output';
  constructor(reason = 'output not wanted') {
    super(reason);
    this.name = 'DestroyOutputError';
  }
}

/**
 * Whether `error` is a {@link DestroyOutputError} (code `destroy-output`), from any copy of cosi.
 */
export const isDestroyOutput = (error: unknown): error is DestroyOutputError =>
  hasCode(error, 'destroy-output');

/** Every error of one pass of a whole-world generic controller, thrown together at its end. */
export class ReconcileCycleError extends AggregateError {
  readonly code = 'reconcile-cycle';

  constructor(
    readonly controller: string,
    errors: readonly Error[],
  ) {
    super(
      errors,
      `controller ${JSON.stringify(controller)} failed: ${errors.map((e) => e.message).join('; ')}`,
    );
    this.name = 'ReconcileCycleError';
  }
}

/**
 * What was thrown, as an `Error`: JavaScript can throw anything, and the runtime records and
 * reports errors by their message. Total: a value that is not an `Error` safe to read (a
 * null-prototype object, one whose `toString` throws, a Proxy, a primitive) becomes a
 * {@link ThrownValueError} describing it, without running any of its code.
 */
export function toError(thrown: unknown): Error {
  if (typeof thrown === 'string') return new Error(thrown);
  return isSafeError(thrown) ? thrown : new ThrownValueError(thrown);
}
