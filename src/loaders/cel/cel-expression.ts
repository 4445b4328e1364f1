/**
 * Parsing and planning an expression in the API server's CEL dialect: `@bufbuild/cel`'s parser
 * and planner, with cel-go's optional syntax where the environment has the optional library
 * (Kubernetes 1.28 and later). Everything that compiles CEL (rules, kro's expressions) goes
 * through these two, so each gets the same dialect.
 */

import { parse, plan, type CelEnv } from '@bufbuild/cel';
import type { CelType } from './cel-types.js';
import { lowerOptionals } from './optional-lowering.js';
import { parseOptionalSyntax } from './optional-syntax.js';
import type { ExprNode } from './type-check.js';

/** A parsed expression (cel-spec's `ParsedExpr`). */
export type ParsedExpression = ReturnType<typeof parse>;

/** Whether `env` has cel-go's optional library, and so its parser the optional syntax. */
export function hasOptionalSyntax(env: CelEnv): boolean {
  return env.funcs.find('optional.of') !== undefined;
}

/** Parses kept by their source and dialect: see {@link parseExpression}. */
const parses = new Map<string, ParsedExpression | { readonly error: unknown }>();
/** Past this many, the kept parses are dropped and kept anew. */
const MAX_KEPT_PARSES = 4096;

/**
 * Parses `source` as the API server of `env`'s version parses it: with the optional syntax
 * (`a.?b`, `m[?k]`, `[?x]`, `{?k: v}`, `optMap`, `optFlatMap`) from Kubernetes 1.28. Throws
 * on a syntax error, with its `<input>:line:col` position.
 *
 * The parser takes about a millisecond a rule, and CRDs repeat their rules (each served version
 * of Gateway API's routes has the same schema: 300 rules, 108 sources, in fixtures/real-crds), so
 * a parse is kept by its source and each caller gets a copy of its own: what follows a parse
 * rewrites it in place (macros, the optional syntax).
 */
export function parseExpression(source: string, env: CelEnv): ParsedExpression {
  const optional = hasOptionalSyntax(env);
  const key = `${optional ? '+' : '-'}${source}`;
  let kept = parses.get(key);
  if (kept === undefined) {
    try {
      kept = optional ? parseOptionalSyntax(source) : parse(source);
    } catch (error) {
      kept = { error };
    }
    if (parses.size >= MAX_KEPT_PARSES) parses.clear();
    parses.set(key, kept);
  }
  if ('error' in kept) throw kept.error;
  // protobuf-es messages are plain objects (bigint ids): a structured clone copies them whole.
  return structuredClone(kept);
}

/**
 * Plans a parsed expression for evaluation. The optional syntax is rewritten for the planner
 * first (in place: the expression is the plan's now); `types`, a type check's node types, tell
 * which operands are optionals.
 */
export function planExpression(
  env: CelEnv,
  parsed: ParsedExpression,
  types?: ReadonlyMap<ExprNode, CelType>,
): ReturnType<typeof plan> {
  if (hasOptionalSyntax(env)) lowerOptionals(parsed.expr, types);
  return plan(env, parsed);
}
