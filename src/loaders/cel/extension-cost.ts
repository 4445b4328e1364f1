/**
 * The static cost of the cel-go extension functions the API server's CEL environment has, after
 * cel-go's own estimators (`ext/sets.go` `estimateSetsCost`, `ext/lists.go` from version 3,
 * which Kubernetes 1.34 enables): the product of two lists' sizes for the `sets` functions, a
 * list allocation (`common.ListCreateBaseCost`) and a pass over the list for `slice`,
 * `reverse`, `flatten` and `lists.range`, a quadratic pass for `distinct` and `sort`. As the rest
 * of cosi's estimate it is a lower bound of the API server's: a size it cannot find counts as 0
 * (cel-go counts the largest one).
 */

import type { LibraryCallCost, LibraryCostContext } from './library-cost.js';
import { SORT_BY_KEYS_FUNCTION } from './kubernetes-library/lists-extension.js';
import type { ExprNode } from './optional-syntax.js';

/** cel-go's `common.ListCreateBaseCost`. */
const LIST_CREATE_BASE_COST = 10;
/** cel-go's `common.StringTraversalCostFactor`. */
const STRING_TRAVERSAL_COST_FACTOR = 0.1;

/** The `sets` functions and their cost factors (`ext/sets.go`). */
const SETS: Readonly<Record<string, number>> = {
  'sets.contains': 1,
  'sets.intersects': 1,
  'sets.equivalent': 2,
};

/**
 * The cost of a call of `fn` (qualified for a namespaced function: `sets.contains`) on `target`
 * with `args`, as cel-go estimates it; undefined for a function it has no estimator of.
 */
export function extensionCallCost(
  fn: string,
  target: ExprNode | undefined,
  args: readonly ExprNode[],
  context: LibraryCostContext,
): LibraryCallCost | undefined {
  const size = (node: ExprNode): number => context.sizeOf(node) ?? 0;
  const setsFactor = SETS[fn];
  if (setsFactor !== undefined) {
    const [a, b] = args;
    if (target !== undefined || a === undefined || b === undefined || args.length !== 2) {
      return undefined;
    }
    return { cost: Math.ceil(size(a) * size(b) * setsFactor) + 1 };
  }
  if (fn === 'lists.range') {
    const [n] = args;
    if (target !== undefined || n === undefined || args.length !== 1) return undefined;
    return allocatingListCall(1, intLiteral(n) ?? 0);
  }
  if (target === undefined || context.typeOf(target).kind !== 'list') return undefined;
  const items = size(target);
  switch (fn) {
    case 'slice': {
      const [start, end] = args;
      if (start === undefined || end === undefined || args.length !== 2) return undefined;
      const from = Math.max(0, intLiteral(start) ?? 0);
      const to = intLiteral(end) ?? items;
      return allocatingListCall(1, Math.max(0, to - from));
    }
    case 'reverse':
      return args.length === 0 ? allocatingListCall(1, items) : undefined;
    case 'flatten': {
      if (args.length > 1) return undefined;
      const [depth] = args;
      return allocatingListCall(depth === undefined ? 1 : (intLiteral(depth) ?? 1), items);
    }
    case 'distinct':
      return args.length === 0 ? allocatingListCall(2, items * items) : undefined;
    case 'sort':
      if (args.length !== 0) return undefined;
      return allocatingListCall(sortFactor(context, target), items * items);
    case SORT_BY_KEYS_FUNCTION: {
      // `sortBy`'s keys list (`ext/lists.go` `estimateListSortBy`) is what is sorted.
      const [keys] = args;
      if (keys === undefined || args.length !== 1) return undefined;
      return allocatingListCall(sortFactor(context, keys), size(keys) * size(keys));
    }
    default:
      return undefined;
  }
}

/** cel-go's `estimateAllocatingListCall`: a pass over `listSize` items, a call, an allocation. */
function allocatingListCall(costFactor: number, listSize: number): LibraryCallCost {
  return {
    cost: Math.ceil(listSize * costFactor) + 1 + LIST_CREATE_BASE_COST,
    resultSize: listSize,
  };
}

/** Sorting compares items: strings and bytes cost their traversal too. */
function sortFactor(context: LibraryCostContext, list: ExprNode): number {
  const type = context.typeOf(list);
  const item = type.kind === 'list' ? type.elem.kind : 'dyn';
  return item === 'string' || item === 'bytes' ? 2 + STRING_TRAVERSAL_COST_FACTOR : 2;
}

/** A non-negative integer literal's value (cel-go's `nodeAsUintValue`). */
function intLiteral(node: ExprNode): number | undefined {
  if (node.exprKind.case !== 'constExpr') return undefined;
  const constant = (node.exprKind.value as { constantKind: { case?: string; value?: unknown } })
    .constantKind;
  if (constant.case !== 'int64Value') return undefined;
  return Math.max(0, Number(constant.value));
}
