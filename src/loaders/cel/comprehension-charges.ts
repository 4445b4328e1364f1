/**
 * What a comprehension is charged (`cost-budget.ts`): its range is passed through the
 * environment's iteration function with the size of one pass of its loop, so that each element it
 * visits (every `all`, `exists`, `map`, `filter`, over data or literals) spends that much of the
 * evaluation's budget, and comprehensions nested over large lists stop with a finding.
 */

import { ITERATE_FUNCTION } from './cel-environment.js';
import type { ExprNode } from './type-check.js';

/**
 * Charges one comprehension (the value of a `comprehensionExpr` node, its inner comprehensions
 * already charged): its range is rewritten in place. The new nodes take the ids `id` and `id + 1`.
 */
export function chargeComprehension(comprehension: Record<string, unknown>, id: bigint): void {
  // Each element visited costs about what one pass of the loop's body evaluates.
  const weight = countNodes(comprehension.loopStep) + countNodes(comprehension.loopCondition);
  comprehension.iterRange = wrapIteration(comprehension.iterRange as ExprNode, weight, id);
}

/**
 * Charges every comprehension of a tree whose macros are expanded, inner ones first (as a walk
 * that charges each after its body would). New nodes are numbered from `nextId`; returns the
 * next id left free.
 */
export function chargeComprehensions(root: object, nextId: bigint): bigint {
  const comprehensions: Record<string, unknown>[] = [];
  eachObject(root, (item) => {
    const kind = (item as Partial<ExprNode>).exprKind;
    if (kind?.case === 'comprehensionExpr') {
      comprehensions.push(kind.value as Record<string, unknown>);
    }
  });
  // Found before what they hold: the last found are the innermost.
  let id = nextId;
  for (const comprehension of comprehensions.reverse()) {
    chargeComprehension(comprehension, id);
    id += 2n;
  }
  return id;
}

/** `range` as the argument of the iteration-charging function, with the cost of one pass. */
function wrapIteration(range: ExprNode, weight: number, id: bigint): ExprNode {
  const cost = {
    $typeName: 'cel.expr.Expr',
    id: id + 1n,
    exprKind: {
      case: 'constExpr',
      value: {
        $typeName: 'cel.expr.Constant',
        constantKind: { case: 'int64Value', value: BigInt(weight) },
      },
    },
  };
  return {
    $typeName: 'cel.expr.Expr',
    id,
    exprKind: {
      case: 'callExpr',
      value: { $typeName: 'cel.expr.Expr.Call', function: ITERATE_FUNCTION, args: [range, cost] },
    },
  } as unknown as ExprNode;
}

/** How many expression nodes a subtree has. */
function countNodes(node: unknown): number {
  let count = 0;
  eachObject(node, (item) => {
    if ((item as { $typeName?: unknown }).$typeName === 'cel.expr.Expr') count++;
  });
  return count;
}

/**
 * Calls `visit` with every object (not array) of a tree, parents before what they hold, without
 * recursion: an expression nested thousands deep does not overflow the stack.
 */
function eachObject(root: unknown, visit: (item: object) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      stack.push(...(item as unknown[]));
      continue;
    }
    visit(item);
    for (const value of Object.values(item)) if (typeof value === 'object') stack.push(value);
  }
}
