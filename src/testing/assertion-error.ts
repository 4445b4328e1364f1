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
