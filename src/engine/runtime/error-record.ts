import { isSafeError, messageOfThrown, readSafely } from '../thrown-value.js';
import { pointerKey, toPointer, type Pointer } from '../resource/pointer.js';

/** A place in a source file: where a controller's error was thrown in the project's code. */
export interface CodeLocation {
  /** As the host shows paths (the app: relative to the working directory). */
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/**
 * Finds where in the project's own code an error was thrown; the engine knows no files, so the
 * host that runs a project installs one (`RuntimeOptions.locateError`).
 */
export type ErrorLocator = (error: Error) => LocatedError | undefined;

/**
 * Where an error was thrown and, when the code there says more of why, a `hint` to add to its
 * message (an import of a name its module does not export, which left the value undefined).
 */
export interface LocatedError extends CodeLocation {
  readonly hint?: string;
}

/**
 * A controller's error as the convergence report keeps it: data a report, a finding or a view
 * reads by its fields, never by parsing the message.
 */
export interface ErrorRecord {
  /**
   * The stable code of the error or of the first error it wraps that has one (`conflict`,
   * `access-denied`, `reconcile-cycle`, ...); `error` when none has (a plain `throw`).
   */
  readonly code: string;
  /** Which rule a `conflict` broke (`owner`, `version`, `phase`, ...). */
  readonly reason?: string;
  /** The resource the coded error is about, when it names one. */
  readonly pointer?: Pointer;
  /** Where in the project's code it was thrown, when the runtime was given a locator. */
  readonly location?: CodeLocation;
  /** The message of the error as thrown (wrappers' context included). */
  readonly message: string;
}

/** The code of an error without one of its own. */
export const UNCODED_ERROR = 'error';

/**
 * The error and everything it wraps, outermost first: its `cause` chain and, for an
 * `AggregateError` (a whole-world controller's pass), each of its errors and their causes.
 */
export function errorChain(error: Error): Error[] {
  const chain: Error[] = [];
  const seen = new Set<Error>();
  const visit = (e: unknown): void => {
    // What it wraps comes from users' code too: read without running their getters or traps.
    if (!isSafeError(e) || seen.has(e)) return;
    seen.add(e);
    chain.push(e);
    visit(readSafely(e, 'cause'));
    const inner = e instanceof AggregateError ? readSafely(e, 'errors') : undefined;
    try {
      if (Array.isArray(inner)) for (const i of inner as unknown[]) visit(i);
    } catch {
      // an array of errors that cannot be read (a Proxy whose traps throw): what was read stays
    }
  };
  visit(error);
  return chain;
}

/** The error as a record: its code, reason and pointer found in what it wraps, its location. */
export function toErrorRecord(error: Error, locate?: ErrorLocator): ErrorRecord {
  const coded = errorChain(error).find((e) => typeof codeOf(e) === 'string');
  const code = coded ? (codeOf(coded) as string) : UNCODED_ERROR;
  const reason = readSafely(coded, 'reason');
  const pointer = readSafely(coded, 'pointer');
  const located = locateSafely(error, locate);
  return {
    code,
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(isPointer(pointer) ? { pointer: toPointer(pointer) } : {}),
    ...(located ? { location: located.location } : {}),
    message: messageOfThrown(error) + (located?.hint ?? ''),
  };
}

/** The locator's answer, its place apart from its hint; `undefined` when it has none or throws. */
function locateSafely(
  error: Error,
  locate: ErrorLocator | undefined,
): { location: CodeLocation; hint?: string } | undefined {
  let located: LocatedError | undefined;
  try {
    located = locate?.(error);
  } catch {
    return undefined;
  }
  if (located === undefined) return undefined;
  const { file, line, col, hint } = located;
  return { location: { file, line, col }, ...(hint === undefined ? {} : { hint }) };
}

/** A write refused because the resource has another owner (`ConflictError` of reason `owner`). */
export function isOwnerConflictRecord(record: ErrorRecord): boolean {
  return record.code === 'conflict' && record.reason === 'owner';
}

function codeOf(error: Error): unknown {
  return readSafely(error, 'code');
}

function isPointer(value: unknown): value is Pointer {
  if (typeof value !== 'object' || value === null) return false;
  const namespace = readSafely(value, 'namespace');
  const type = readSafely(value, 'type');
  const id = readSafely(value, 'id');
  return typeof namespace === 'string' && typeof type === 'string' && typeof id === 'string';
}

/**
 * The resources a controller's error is about, each once, in the order found: those it (and what
 * it wraps: a whole-world controller's pass has one error per item) names as the `resource` it
 * was working on (see `annotate` in the generic controllers).
 */
export function failedResources(error: Error): Pointer[] {
  const found = new Map<string, Pointer>();
  for (const e of errorChain(error)) {
    const resource = readSafely(e, 'resource');
    if (!isPointer(resource)) continue;
    const pointer = toPointer(resource);
    found.set(pointerKey(pointer), pointer);
  }
  return [...found.values()];
}

/**
 * A failure's log fields: its message, its code and, when `locate` finds it in the project's
 * code, where it was thrown (`at`: `file:line:col`), as `cosi apply` shows it.
 */
export function errorLogFields(
  error: Error,
  locate?: ErrorLocator,
): { error: string; code: string; at?: string } {
  const located = locateSafely(error, locate);
  const location = located?.location;
  return {
    error: error.message + (located?.hint ?? ''),
    code: toErrorRecord(error).code,
    ...(location ? { at: `${location.file}:${location.line}:${location.col}` } : {}),
  };
}
