/**
 * Why `build()` refused a controller. Checked in this order, as controller-runtime does (the
 * controller and its name, then its watches); but where controller-runtime has already added the
 * controller when a watch turns out wrong, nothing is registered here when any of them fails.
 *
 * - `missing-reconciler`: `build()` / `complete()` got no reconciler.
 * - `missing-manager`: `controllerManagedBy()` got neither a runtime nor a manager.
 * - `invalid-type`: `for()` got something other than a resource type (a type name string, say);
 *   for `owns()` / `watches()` this is reported with the watches, after `duplicate-name`.
 * - `for-called-twice`: `for()` may be called once.
 * - `missing-name`: neither `for()` nor `named()` gives the controller a name.
 * - `duplicate-name`: a controller of that name is already registered (or added to the manager).
 * - `invalid-predicate`: `withEventFilter()` got something other than a predicate, or the
 *   `predicates` of `for()`, `owns()` or `watches()` are not a list of predicates (a single
 *   predicate, a plain function); reported with the watches, after `duplicate-name`.
 * - `owns-without-for`: `owns()` needs `for()` to know the owner type.
 * - `no-watches`: no `for`, `owns`, `watches` or raw source, so nothing would ever trigger it.
 * - `invalid-options`: `withOptions()` got a key it does not take (a misspelling, or
 *   controller-runtime's `baseDelay` in `rateLimiter`) or a negative or `NaN`
 *   `reconciliationTimeout`.
 * - `registration`: the runtime refused the declaration, or would refuse it once a manager that
 *   has not started registers it (see `cause`).
 */
export type BuilderErrorCode =
  | 'missing-reconciler'
  | 'missing-manager'
  | 'invalid-type'
  | 'for-called-twice'
  | 'missing-name'
  | 'duplicate-name'
  | 'invalid-predicate'
  | 'owns-without-for'
  | 'no-watches'
  | 'invalid-options'
  | 'registration';

/** A controller the builder could not build; `code` says why. */
export class BuilderError extends Error {
  constructor(
    readonly code: BuilderErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BuilderError';
  }
}

/**
 * Tested by its name and code, not `instanceof`, for the reason `engine/errors.ts` gives: a
 * project's config may load its own copy of this module. Its `code` is the reason above, not one
 * of the engine's `ErrorCode`s: a builder error is a usage error thrown at the caller of
 * `build()`, never one that travels through the runtime.
 */
export const isBuilderError = (error: unknown): error is BuilderError =>
  error instanceof Error && error.name === 'BuilderError' && 'code' in error;
