import { TypeResolutionError } from '../engine/resource/definition-registry.js';
import { UnknownTargetError } from './absence-target.js';
import { ManifestError } from './manifest-input.js';

/**
 * A failed expectation of `cosi/testing`: the message says what was expected and, when a
 * resource differs, holds a unified diff (`-` expected, `+` actual); `resourceDiff` holds it
 * alone (not `diff`: vitest would print that a second time). Any test runner prints it as it is.
 */
export class CosiAssertionError extends Error {
  constructor(
    message: string,
    /** The diff of expected and actual, when there is one. */
    readonly resourceDiff?: string,
  ) {
    super(
      resourceDiff === undefined || resourceDiff === '' ? message : `${message}\n\n${resourceDiff}`,
    );
    this.name = 'CosiAssertionError';
  }
}

/**
 * Points a failed expectation's stack at the test that called `api`: the frames inside cosi
 * (whose code a runner's code frame would show, when cosi is installed by a link outside
 * `node_modules`) are left out. So is a test's misuse that cosi refuses (a type no definition
 * has, an absence check of a type or namespace the project never had): the mistake is at the
 * call; so are manifests with errors, and an edit of what is no manifest. Any other error (a
 * check function's own, a controller's, a config's) keeps its stack, which points at the code
 * that threw it. Kept as it was if `api` is not on the stack.
 */
export function thrownAtCaller<E>(error: E, api: (...args: never[]) => unknown): E {
  if (!isRefusalOfCosi(error)) return error;
  const before = error.stack;
  Error.captureStackTrace(error, api);
  if (!/\n\s+at /.test(error.stack ?? '')) error.stack = before;
  return error;
}

/** Errors cosi throws at a test's misuse that have no class of their own (see {@link asMisuse}). */
const misuses = new WeakSet<object>();

/**
 * Marks an error as a test's misuse that cosi refuses (an edit of an id that is no manifest): it
 * is thrown at the test's call, as a failed expectation is.
 */
export function asMisuse<E extends Error>(error: E): E {
  misuses.add(error);
  return error;
}

/**
 * A failed expectation, or a misuse cosi refuses: a misspelt type, an absence check of a type
 * never had, manifests with errors, a marked misuse.
 */
function isRefusalOfCosi(error: unknown): error is Error {
  return (
    error instanceof CosiAssertionError ||
    error instanceof UnknownTargetError ||
    error instanceof TypeResolutionError ||
    error instanceof ManifestError ||
    (typeof error === 'object' && error !== null && misuses.has(error))
  );
}

/** Runs `run` for `api` (which awaits it): what fails, fails at `api`'s caller. */
export async function failAtCaller<T>(
  api: (...args: never[]) => unknown,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw thrownAtCaller(error, api);
  }
}
