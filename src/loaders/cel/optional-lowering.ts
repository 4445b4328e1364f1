/**
 * Plans cel-go's optional syntax on `@bufbuild/cel`, whose planner has no optional values: the
 * parsed expression (in cel-go's shape, see `optional-syntax.ts`) is rewritten into calls of the
 * optional library's functions (`kubernetes-library/optional.ts`):
 *
 * - `a.?b` and `a[?k]` call the library's functions (the planner's own `_?._` and `_[?_]` give
 *   the value or an error, not an optional); a field selection or index on an optional
 *   (`a.?b.c`, `a[?0][1]`, `oldSelf.x` under `optionalOldSelf`) is optional too, as cel-go's
 *   attributes qualify an optional operand;
 * - a list with optional elements `[a, ?b]` is `@cosi.optionalElements([a, b], [1])`, a map with
 *   optional entries `{?k: v}` is `@cosi.optionalEntries({k: v}, [k])`;
 * - `x.or(y)` and `x.orValue(y)` evaluate `y` only when `x` is empty (cel-go short-circuits
 *   them): `x` is bound once, by a comprehension over no elements, as `cel.bind` binds.
 */

import type { CelType } from './cel-types.js';
import {
  OPTIONAL_ELEMENTS_FUNCTION,
  OPTIONAL_ENTRIES_FUNCTION,
  OPTIONAL_HAS_FUNCTION,
  OPTIONAL_INDEX_FUNCTION,
  OPTIONAL_SELECT_FUNCTION,
} from './kubernetes-library/optional.js';
import {
  bindingComprehension,
  copyExpr,
  expressionNodes,
  OPT_INDEX,
  OPT_SELECT,
} from './optional-syntax.js';
import type { ExprNode } from './optional-syntax.js';

/** The variable `x.or(y)` binds `x` to: no rule can write its name. */
const BOUND = '@cosi.optional';

/** Functions whose result is an optional whatever their operands. */
const OPTIONAL_RESULTS = new Set([
  OPTIONAL_SELECT_FUNCTION,
  OPTIONAL_INDEX_FUNCTION,
  'optional.of',
  'optional.ofNonZeroValue',
  'optional.none',
  'or',
  'first',
  'last',
]);

type Node = ExprNode & { exprKind: { case: string | undefined; value: Record<string, unknown> } };

/**
 * Rewrites `expr` in place for `@bufbuild/cel`'s planner. `types` are the node types of its type
 * check, when there was one: an operand they say is optional is selected from as an optional.
 */
export function lowerOptionals(expr: ExprNode, types?: ReadonlyMap<ExprNode, CelType>): void {
  const nodes = expressionNodes(expr);
  let next = 1n;
  for (const node of nodes) if (node.id >= next) next = node.id + 1n;
  const newId = (): bigint => next++;
  const optional = new Set<ExprNode>();
  const isOptional = (node: ExprNode): boolean =>
    optional.has(node) || types?.get(node)?.kind === 'optional';
  // Children before parents, so an operand is known optional before its parent is lowered.
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i] as Node;
    const v = node.exprKind.value;
    switch (node.exprKind.case) {
      case 'selectExpr':
        if (v.testOnly === true && isOptional(v.operand as ExprNode)) {
          // `has(o.f)` on an optional: whether it holds a value with the field.
          node.exprKind = callKind(OPTIONAL_HAS_FUNCTION, [
            v.operand as ExprNode,
            constant(newId(), 'stringValue', v.field),
          ]);
        } else if (v.testOnly !== true && isOptional(v.operand as ExprNode)) {
          node.exprKind = callKind(OPTIONAL_SELECT_FUNCTION, [
            v.operand as ExprNode,
            constant(newId(), 'stringValue', v.field),
          ]);
          optional.add(node);
        }
        break;
      case 'callExpr': {
        const name = v.function as string;
        const args = v.args as ExprNode[];
        if (name === OPT_SELECT) v.function = OPTIONAL_SELECT_FUNCTION;
        if (
          name === OPT_INDEX ||
          (name === '_[_]' && args[0] !== undefined && isOptional(args[0]))
        ) {
          v.function = OPTIONAL_INDEX_FUNCTION;
        }
        if ((name === 'or' || name === 'orValue') && v.target !== undefined && args.length === 1) {
          node.exprKind = bindFirst(v.target as ExprNode, args[0] as ExprNode, name, newId);
        }
        if (OPTIONAL_RESULTS.has(qualifiedName(v.function as string, v.target)) || name === 'or') {
          optional.add(node);
        }
        break;
      }
      case 'listExpr': {
        const indices = v.optionalIndices as number[];
        if (indices.length > 0) {
          const list = {
            ...node,
            id: newId(),
            exprKind: { case: 'listExpr', value: { ...v, optionalIndices: [] } },
          };
          node.exprKind = callKind(OPTIONAL_ELEMENTS_FUNCTION, [
            list,
            listOf(
              indices.map((index) => constant(newId(), 'int64Value', BigInt(index))),
              newId,
            ),
          ]);
        }
        break;
      }
      case 'structExpr': {
        const entries = v.entries as {
          keyKind: { case?: string; value?: unknown };
          optionalEntry?: boolean;
        }[];
        if (v.messageName || !entries.some((entry) => entry.optionalEntry === true)) break;
        const keys = entries
          .filter((entry) => entry.optionalEntry === true && entry.keyKind.case === 'mapKey')
          .map((entry) => copyExpr(entry.keyKind.value as ExprNode, newId));
        const map = {
          ...node,
          id: newId(),
          exprKind: {
            case: 'structExpr',
            value: { ...v, entries: entries.map((entry) => ({ ...entry, optionalEntry: false })) },
          },
        };
        node.exprKind = callKind(OPTIONAL_ENTRIES_FUNCTION, [map, listOf(keys, newId)]);
        break;
      }
      default:
        break;
    }
  }
}

/** `optional.of` for a call of `of` on the name `optional`; the function's name otherwise. */
function qualifiedName(fn: string, target: unknown): string {
  const on = target as ExprNode | undefined;
  if (on?.exprKind.case !== 'identExpr') return fn;
  const name = (on.exprKind.value as { name: string }).name;
  return name === 'optional' ? `optional.${fn}` : fn;
}

function callKind(fn: string, args: ExprNode[], target?: ExprNode): Node['exprKind'] {
  return {
    case: 'callExpr',
    value: {
      $typeName: 'cel.expr.Expr.Call',
      function: fn,
      args,
      ...(target === undefined ? {} : { target }),
    },
  };
}

function node(id: bigint, exprKind: Node['exprKind']): ExprNode {
  return { $typeName: 'cel.expr.Expr', id, exprKind } as unknown as ExprNode;
}

function constant(
  id: bigint,
  kind: 'stringValue' | 'int64Value' | 'boolValue',
  value: unknown,
): ExprNode {
  return node(id, {
    case: 'constExpr',
    value: { $typeName: 'cel.expr.Constant', constantKind: { case: kind, value } },
  });
}

function listOf(elements: ExprNode[], newId: () => bigint): ExprNode {
  return node(newId(), {
    case: 'listExpr',
    value: { $typeName: 'cel.expr.Expr.CreateList', elements, optionalIndices: [] },
  });
}

/**
 * `x.or(y)` as `x.hasValue() ? x : y` and `x.orValue(y)` as `x.hasValue() ? x.value() : y`,
 * with `x` evaluated once.
 */
function bindFirst(
  target: ExprNode,
  fallback: ExprNode,
  name: string,
  newId: () => bigint,
): Node['exprKind'] {
  const bound = (): ExprNode =>
    node(newId(), { case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name: BOUND } });
  const chosen = name === 'or' ? bound() : node(newId(), callKind('value', [], bound()));
  const result = node(
    newId(),
    callKind('_?_:_', [node(newId(), callKind('hasValue', [], bound())), chosen, fallback]),
  );
  return bindingComprehension(BOUND, target, result, newId) as Node['exprKind'];
}
