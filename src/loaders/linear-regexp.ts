import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

let engine: typeof RE2JS | undefined;

/**
 * RE2JS, required on the first pattern (its CommonJS build: a synchronous load, as ajv compiles
 * synchronously): 270 KB of code that a project whose schemas have no pattern never loads.
 */
const re2js = (): typeof RE2JS =>
  (engine ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS);

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

/**
 * Patterns compiled, by their source, and the errors of those that do not compile. CRDs repeat
 * their patterns (a hostname's, a label's, in every route and version of Gateway API), and each
 * schema compile and validity check asks for them again. A compiled RE2JS is immutable.
 */
const compiledPatterns = new Map<
  string,
  { readonly compiled: RE2JS } | { readonly error: unknown }
>();
/** Past this many, the kept patterns are dropped and kept anew. */
const MAX_KEPT_PATTERNS = 4096;

function compilePattern(pattern: string): RE2JS {
  let kept = compiledPatterns.get(pattern);
  if (kept === undefined) {
    try {
      kept = { compiled: re2js().compile(pattern) };
    } catch (error) {
      kept = { error };
    }
    if (compiledPatterns.size >= MAX_KEPT_PATTERNS) compiledPatterns.clear();
    compiledPatterns.set(pattern, kept);
  }
  if ('error' in kept) throw kept.error;
  return kept.compiled;
}

/** Compiles a pattern for searching (as `RegExp#test`); throws on syntax RE2 does not accept. */
export function compileLinearRegExp(pattern: string): LinearRegExp {
  const compiled = compilePattern(pattern);
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
