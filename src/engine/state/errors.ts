import { formatPointer, type Pointer } from '../resource/pointer.js';

/** Stable codes of state errors. */
export type StateErrorCode = 'not-found' | 'conflict';

/** Why a write conflicted. */
export type ConflictReason = 'exists' | 'version' | 'owner' | 'phase' | 'pending-finalizers';

/** Base class of every error the state raises. */
export abstract class StateError extends Error {
  abstract readonly code: StateErrorCode;
  constructor(
    readonly pointer: Pointer,
    message: string,
  ) {
    super(message);
  }
}

/** The resource does not exist. */
export class NotFoundError extends StateError {
  readonly code = 'not-found';
  constructor(pointer: Pointer) {
    super(pointer, `resource ${formatPointer(pointer)} doesn't exist`);
    this.name = 'NotFoundError';
  }
}

/** A write that the current state does not allow; `reason` says which rule. */
export class ConflictError extends StateError {
  readonly code = 'conflict';
  constructor(
    pointer: Pointer,
    readonly reason: ConflictReason,
    message: string,
  ) {
    super(pointer, message);
    this.name = 'ConflictError';
  }
}

/*
 * Predicates test the stable `code` (and `reason`), not the class: a project's config may load its
 * own copy of this module, and its errors must still be understood.
 */
const codeOf = (err: unknown): unknown =>
  typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
const reasonOf = (err: unknown): unknown =>
  codeOf(err) === 'conflict' ? (err as { reason?: unknown }).reason : undefined;

export const isNotFound = (err: unknown): err is NotFoundError => codeOf(err) === 'not-found';

/** Any conflict: exists, version, owner, phase or pending finalizers. */
export const isConflict = (err: unknown): err is ConflictError => codeOf(err) === 'conflict';

export const isOwnerConflict = (err: unknown): err is ConflictError => reasonOf(err) === 'owner';

export const isPhaseConflict = (err: unknown): err is ConflictError => reasonOf(err) === 'phase';

/** A plain version (or exists) conflict, the kind a retry can fix. */
export const isRetryableConflict = (err: unknown): err is ConflictError =>
  reasonOf(err) === 'version' || reasonOf(err) === 'exists';

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
