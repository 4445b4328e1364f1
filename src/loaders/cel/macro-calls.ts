/**
 * cel-go's macros that bind variables and that `@bufbuild/cel`'s parser leaves as plain calls:
 * `list.sortBy(x, key)` and the two-variable comprehensions (`m.all(k, v, p)`, `transformList`,
 * ...), rewritten into what the planner runs, where the environment has their helpers. The rule
 * compiler rewrites them as it visits a rule; kro's expressions are rewritten whole
 * ({@link expandMacroCalls}).
 */

import type { CelEnv } from '@bufbuild/cel';
import { SORT_BY_KEYS_FUNCTION } from './kubernetes-library/lists-extension.js';
import {
  expandTwoVariableComprehension,
  PAIRS_FUNCTION,
  renumber,
} from './two-variable-comprehensions.js';
import type { ExprNode } from './type-check.js';
import { isBindCall } from './bind-call.js';
import { bindingComprehension } from './optional-syntax.js';

/**
 * The rewritten form of the call `target.name(args)`, or `undefined` when it is not one of the
 * macros or `env` lacks its helper.
 */
export function expandMacroCall(
  env: CelEnv,
  name: string,
  target: ExprNode,
  args: readonly ExprNode[],
  newId: () => bigint,
): ExprNode | undefined {
  if (args.length >= 3 && env.funcs.find(PAIRS_FUNCTION) !== undefined) {
    const expanded = expandTwoVariableComprehension(name, target, args, newId);
    if (expanded !== undefined) return expanded;
  }
  const [variable, key] = args;
  if (
    name === 'sortBy' &&
    args.length === 2 &&
    variable?.exprKind.case === 'identExpr' &&
    key !== undefined &&
    env.funcs.find(SORT_BY_KEYS_FUNCTION) !== undefined
  ) {
    return expandSortBy(target, variable, key, newId);
  }
  return undefined;
}

/**
 * Rewrites, in place, every macro call of {@link expandMacroCall} in `root`, and `cel.bind(x,
 * init, body)` (cel-go's bindings extension, which kro's environment has and the API server's
 * has not) as cel-go expands it: a comprehension over no elements whose accumulator `x` starts
 * as `init`, and whose result is `body`.
 */
export function expandMacroCalls(env: CelEnv, root: object): void {
  let nextId = maxId(root) + 1n;
  const newId = (): bigint => nextId++;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      stack.push(...(item as unknown[]));
      continue;
    }
    const node = item as ExprNode;
    if ((node.exprKind as ExprNode['exprKind'] | undefined)?.case === 'callExpr') {
      const call = node.exprKind.value as { function: string; target?: ExprNode; args: ExprNode[] };
      const expanded =
        call.target === undefined
          ? undefined
          : (expandBind(call.function, call.target, call.args, newId) ??
            expandMacroCall(env, call.function, call.target, call.args, newId));
      if (expanded !== undefined) node.exprKind = expanded.exprKind;
    }
    for (const value of Object.values(item)) if (typeof value === 'object') stack.push(value);
  }
}

/** The largest node id in a tree: new nodes are numbered after it. */
export function maxId(node: unknown): bigint {
  let max = 0n;
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      stack.push(...(item as unknown[]));
      continue;
    }
    for (const [key, value] of Object.entries(item)) {
      if (key === 'id' && typeof value === 'bigint' && value > max) max = value;
      else if (typeof value === 'object') stack.push(value);
    }
  }
  return max;
}

/**
 * cel-go's `sortBy` macro: `list.sortBy(x, key)` is `list.@sortByAssociatedKeys(list.map(x,
 * key))`. cel-go binds the list to a variable; here its expression is evaluated twice, which
 * gives the same value (CEL has no side effects) at twice the cost of evaluating it.
 */
function expandSortBy(
  target: ExprNode,
  variable: ExprNode,
  key: ExprNode,
  newId: () => bigint,
): ExprNode {
  const expr = (exprKind: { case: string; value: object }): ExprNode =>
    ({ $typeName: 'cel.expr.Expr', id: newId(), exprKind }) as unknown as ExprNode;
  const ident = (name: string): ExprNode =>
    expr({ case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name } });
  const list = (elements: ExprNode[]): ExprNode =>
    expr({
      case: 'listExpr',
      value: { $typeName: 'cel.expr.Expr.CreateList', elements, optionalIndices: [] },
    });
  const call = (fn: string, args: ExprNode[], callTarget?: ExprNode): ExprNode =>
    expr({
      case: 'callExpr',
      value: {
        $typeName: 'cel.expr.Expr.Call',
        function: fn,
        args,
        ...(callTarget === undefined ? {} : { target: callTarget }),
      },
    });
  const accumulator = '@sortBy.keys';
  const keys = expr({
    case: 'comprehensionExpr',
    value: {
      $typeName: 'cel.expr.Expr.Comprehension',
      iterVar: (variable.exprKind.value as { name: string }).name,
      iterVar2: '',
      iterRange: renumber(target, newId),
      accuVar: accumulator,
      accuInit: list([]),
      loopCondition: expr({
        case: 'constExpr',
        value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'boolValue', value: true } },
      }),
      loopStep: call('_+_', [ident(accumulator), list([key])]),
      result: ident(accumulator),
    },
  });
  return call(SORT_BY_KEYS_FUNCTION, [keys], target);
}

/** `cel.bind(x, init, body)` expanded (see {@link expandMacroCalls}), or `undefined`. */
function expandBind(
  name: string,
  target: ExprNode,
  args: readonly ExprNode[],
  newId: () => bigint,
): ExprNode | undefined {
  if (!isBindCall(name, target, args)) return undefined;
  const [variable, init, body] = args as [ExprNode, ExprNode, ExprNode];
  const bound = (variable.exprKind.value as { name: string }).name;
  return {
    $typeName: 'cel.expr.Expr',
    id: newId(),
    exprKind: bindingComprehension(bound, init, body, newId),
  } as unknown as ExprNode;
}
