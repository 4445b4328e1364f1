/**
 * A failed expectation of `cosi/testing`: the message says what was expected and, when a
 * resource differs, holds a unified diff (`-` expected, `+` actual); `diff` holds it alone. Any
 * test runner prints it as it is.
 */
export class CosiAssertionError extends Error {
  constructor(
    message: string,
    /** The diff of expected and actual, when there is one. */
    readonly diff?: string,
  ) {
    super(diff === undefined || diff === '' ? message : `${message}\n\n${diff}`);
    this.name = 'CosiAssertionError';
  }
}
