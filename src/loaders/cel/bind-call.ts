/**
 * cel-go's bindings extension (`cel.bind(x, init, body)`, which kro's environment has): how a
 * call is told to be one, for the macro expansion (`macro-calls.ts`) and the type check
 * (`type-check.ts`) alike.
 */

import type { ExprNode } from './optional-syntax.js';

/** Whether `target.name(args)` is `cel.bind(x, init, body)`, `x` a plain name. */
export function isBindCall(
  name: string,
  target: ExprNode | undefined,
  args: readonly ExprNode[],
): boolean {
  return (
    name === 'bind' &&
    target?.exprKind.case === 'identExpr' &&
    (target.exprKind.value as { name: string }).name === 'cel' &&
    args.length === 3 &&
    args[0]?.exprKind.case === 'identExpr'
  );
}
