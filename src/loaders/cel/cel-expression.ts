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

/**
 * Parses `source` as the API server of `env`'s version parses it: with the optional syntax
 * (`a.?b`, `m[?k]`, `[?x]`, `{?k: v}`, `optMap`, `optFlatMap`) from Kubernetes 1.28. Throws
 * on a syntax error, with its `<input>:line:col` position.
 */
export function parseExpression(source: string, env: CelEnv): ParsedExpression {
  return hasOptionalSyntax(env) ? parseOptionalSyntax(source) : parse(source);
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
