/**
 * cel-go's parser refuses an expression nested deeper than 250 levels ("max recursion depth
 * exceeded"), counting as it builds the expression each selection, index, member call (a macro
 * is one), relation, arithmetic operation and conditional inside another. `@bufbuild/cel` has no
 * such bound, so the depth is counted here on its parsed expression, as a lower bound of
 * cel-go's count: what a macro's expansion adds (the calls on its accumulator) is not counted,
 * nor are parentheses, which the parsed expression no longer shows.
 */

import type { ExprNode } from './type-check.js';
import { literalEntries } from './literal-entries.js';

/** cel-go's default `maxRecursionDepth`, which the API server keeps. */
export const MAX_RECURSION_DEPTH = 250;

/** The operators cel-go's parser visits as a relation or a calculation. */
const COUNTED_OPERATORS = new Set([
  '_<_',
  '_<=_',
  '_>_',
  '_>=_',
  '_==_',
  '_!=_',
  '@in',
  '_+_',
  '_-_',
  '_*_',
  '_/_',
  '_%_',
  '_?_:_',
  '_[_]',
]);

/** The accumulator a macro's expansion reads: a call on it is the expansion's, not the rule's. */
const ACCUMULATORS = new Set(['@result', '__result__']);

/** How deeply an expression nests, as far as cel-go's parser would count it (at least). */
export function recursionDepth(expr: ExprNode): number {
  let deepest = 0;
  const stack: [ExprNode, number][] = [[expr, 0]];
  while (stack.length > 0) {
    const [node, above] = stack.pop() as [ExprNode, number];
    const v = node.exprKind.value as Record<string, unknown>;
    const children: ExprNode[] = [];
    let counted = false;
    switch (node.exprKind.case) {
      case 'selectExpr':
        counted = true;
        children.push(v.operand as ExprNode);
        break;
      case 'callExpr': {
        const args = v.args as ExprNode[];
        const target = v.target as ExprNode | undefined;
        const synthesized = args.some(
          (arg) =>
            arg.exprKind.case === 'identExpr' &&
            ACCUMULATORS.has((arg.exprKind.value as { name: string }).name),
        );
        counted =
          !synthesized && (target !== undefined || COUNTED_OPERATORS.has(v.function as string));
        if (target !== undefined) children.push(target);
        children.push(...args);
        break;
      }
      case 'comprehensionExpr':
        counted = true;
        for (const key of ['iterRange', 'accuInit', 'loopCondition', 'loopStep', 'result']) {
          children.push(v[key] as ExprNode);
        }
        break;
      case 'listExpr':
        children.push(...(v.elements as ExprNode[]));
        break;
      case 'structExpr':
        for (const entry of literalEntries(v)) {
          if (entry.key !== undefined) children.push(entry.key);
          children.push(entry.value);
        }
        break;
      default:
        break;
    }
    const depth = above + (counted ? 1 : 0);
    if (depth > deepest) deepest = depth;
    for (const child of children) stack.push([child, depth]);
  }
  return deepest;
}
