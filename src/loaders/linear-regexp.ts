import { RE2JS } from 're2js';

/**
 * Regular expressions for patterns that come from manifests: untrusted input, so they run in
 * RE2JS, whose matching time is linear in the input (`^(a+)+$` cannot backtrack for ever).
 * Syntax RE2 has no linear algorithm for (lookaround, backreferences) does not compile.
 */
export interface LinearRegExp {
  test(input: string): boolean;
  /** The pattern: ajv keys compiled patterns by this string. */
  toString(): string;
}

/** Compiles a pattern for searching (as `RegExp#test`); throws on syntax RE2 does not accept. */
export function compileLinearRegExp(pattern: string): LinearRegExp {
  const compiled = RE2JS.compile(pattern);
  return {
    test: (input) => compiled.test(input),
    toString: () => `/${pattern}/`,
  };
}

/** Why a pattern does not compile, or `undefined` when it does. */
export function linearRegExpError(pattern: string): string | undefined {
  try {
    compileLinearRegExp(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The engine as ajv's `code.regExp` option takes it. `code` only matters for standalone code,
 * which cosi does not generate.
 */
export const linearRegExpEngine = Object.assign(
  (pattern: string): LinearRegExp => compileLinearRegExp(pattern),
  { code: 'compileLinearRegExp' },
);
