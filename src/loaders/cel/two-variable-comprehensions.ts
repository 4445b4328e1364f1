/**
 * cel-go's two-variable comprehensions (Kubernetes 1.32): `all(k, v, p)`, `exists(k, v, p)`,
 * `existsOne(k, v, p)`, `transformList(i, v, [filter,] e)`, `transformMap(k, v, [filter,] e)` and
 * `transformMapEntry(k, v, [filter,] e)` (`e` a map of the entries to add, merged into one; a key
 * made twice is an error) over a list (index and element) or a map (key and value). `@bufbuild/cel` has no second
 * iteration variable, so the rule compiler rewrites each into a one-variable macro over the
 * pairs of its target: `m.all(k, v, p)` is `cosi__pairs(m).all(pair, p')`, where `p'` reads
 * `pair[0]` for `k` and `pair[1]` for `v`.
 */

import {
  celFunc,
  celList,
  celMap,
  CelScalar,
  isCelList,
  isCelMap,
  listType,
  mapType,
  parse,
  type CelFunc,
  type CelValue,
} from '@bufbuild/cel';
import { charge, sizeCost } from './cost-budget.js';

/** The helper a rewritten comprehension iterates: `[[key, value], ...]`. */
export const PAIRS_FUNCTION = 'cosi__pairs';
/** The helper `transformMap` builds its map with, from `[[key, value], ...]`. */
const ENTRIES_FUNCTION = 'cosi__entries';
/** The helper `transformMapEntry` builds its map with, from the maps of entries its body makes. */
const MERGE_ENTRIES_FUNCTION = 'cosi__mergeEntries';

const MACROS = new Set([
  'all',
  'exists',
  'existsOne',
  'exists_one',
  'transformList',
  'transformMap',
  'transformMapEntry',
]);

export const twoVariableComprehensionsLibrary: readonly CelFunc[] = [
  celFunc(PAIRS_FUNCTION, [CelScalar.DYN], listType(CelScalar.DYN), (target) => {
    if (isCelList(target)) {
      charge(sizeCost(target.size));
      return celList([...target].map((value, i) => celList([BigInt(i), value])));
    }
    if (isCelMap(target)) {
      charge(sizeCost(target.size));
      return celList([...target].map(([key, value]) => celList([key as CelValue, value])));
    }
    throw new Error(
      'found no matching overload: a two-variable comprehension needs a list or a map',
    );
  }),
  celFunc(
    ENTRIES_FUNCTION,
    [listType(CelScalar.DYN)],
    mapType(CelScalar.DYN, CelScalar.DYN),
    (entries) => {
      const map = new Map<unknown, CelValue>();
      for (const entry of entries) {
        if (!isCelList(entry)) throw new Error('transformMap: not an entry');
        map.set(entry.get(0), entry.get(1) as CelValue);
      }
      return celMap(map as Map<string, CelValue>);
    },
  ),
  celFunc(
    MERGE_ENTRIES_FUNCTION,
    [listType(CelScalar.DYN)],
    mapType(CelScalar.DYN, CelScalar.DYN),
    (entries) => {
      const map = new Map<unknown, CelValue>();
      for (const entry of entries) {
        if (!isCelMap(entry)) {
          throw new Error('transformMapEntry: the expression must make a map of entries');
        }
        for (const [key, value] of entry) {
          // cel-go's cel.@mapInsert: an entry never replaces another.
          if (map.has(key)) {
            const shown = typeof key === 'object' ? `${key.value}u` : String(key);
            throw new Error(`insert failed: key ${shown} already exists`);
          }
          map.set(key, value);
        }
      }
      return celMap(map as Map<string, CelValue>);
    },
  ),
];

/** A parsed expression's node, read loosely (cel-spec's `Expr` message). */
export interface ExprNode {
  id: bigint;
  exprKind: { case: string | undefined; value?: unknown };
}

function identName(node: ExprNode | undefined): string | undefined {
  return node?.exprKind.case === 'identExpr'
    ? (node.exprKind.value as { name: string }).name
    : undefined;
}

/** An expression parsed from `source`, with fresh ids. */
function template(source: string, newId: () => bigint): ExprNode {
  return renumber(parse(source).expr, newId);
}

/** A copy of an expression with fresh ids (the rule compiler's rewrites use it too). */
export function renumber(node: unknown, newId: () => bigint): ExprNode {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (typeof value !== 'object' || value === null) return value;
    const result: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) result[key] = copy(field);
    if (result.$typeName === 'cel.expr.Expr') result.id = newId();
    return result;
  };
  return copy(node) as ExprNode;
}

/** Replaces, in `node`, each identifier of `names` (not rebound below) by a fresh copy of its node. */
function substitute(node: unknown, names: ReadonlyMap<string, () => ExprNode>): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) substitute(item, names);
    return;
  }
  const expr = node as ExprNode;
  if ((node as { $typeName?: string }).$typeName === 'cel.expr.Expr') {
    const name = identName(expr);
    const replace = name === undefined ? undefined : names.get(name);
    if (replace !== undefined) {
      expr.exprKind = replace().exprKind;
      return;
    }
    if (expr.exprKind.case === 'comprehensionExpr') {
      const v = expr.exprKind.value as Record<string, unknown>;
      const bound = new Set([v.iterVar, v.iterVar2, v.accuVar]);
      const inner = new Map([...names].filter(([n]) => !bound.has(n)));
      substitute(v.iterRange, names);
      substitute(v.accuInit, names);
      for (const key of ['loopCondition', 'loopStep', 'result']) substitute(v[key], inner);
      return;
    }
  }
  for (const value of Object.values(node)) substitute(value, names);
}

/**
 * The one-variable form of a two-variable comprehension call, or `undefined` when `call` is
 * not one (`all(x, p)` is the standard macro, expanded by the parser already).
 */
export function expandTwoVariableComprehension(
  name: string,
  target: ExprNode,
  args: readonly ExprNode[],
  newId: () => bigint,
): ExprNode | undefined {
  const [first, second, ...rest] = args;
  const key = identName(first);
  const value = identName(second);
  const transform = name.startsWith('transform');
  if (!MACROS.has(name) || key === undefined || value === undefined) return undefined;
  if (rest.length !== 1 && !(transform && rest.length === 2)) return undefined;
  const pair = `__cosi_pair_${newId()}`;
  const names = new Map([
    [key, () => template(`${pair}[0]`, newId)],
    [value, () => template(`${pair}[1]`, newId)],
  ]);
  for (const node of rest) substitute(node, names);
  const filter = rest.length === 2 ? `__FILTER__, ` : '';
  const source = {
    all: `${PAIRS_FUNCTION}(__TARGET__).all(${pair}, __BODY__)`,
    exists: `${PAIRS_FUNCTION}(__TARGET__).exists(${pair}, __BODY__)`,
    existsOne: `${PAIRS_FUNCTION}(__TARGET__).exists_one(${pair}, __BODY__)`,
    exists_one: `${PAIRS_FUNCTION}(__TARGET__).exists_one(${pair}, __BODY__)`,
    transformList: `${PAIRS_FUNCTION}(__TARGET__).map(${pair}, ${filter}__BODY__)`,
    transformMap: `${ENTRIES_FUNCTION}(${PAIRS_FUNCTION}(__TARGET__).map(${pair}, ${filter}[${pair}[0], __BODY__]))`,
    transformMapEntry: `${MERGE_ENTRIES_FUNCTION}(${PAIRS_FUNCTION}(__TARGET__).map(${pair}, ${filter}__BODY__))`,
  }[name] as string;
  const expanded = template(source, newId);
  const parts = new Map<string, () => ExprNode>([
    ['__TARGET__', () => target],
    ['__BODY__', () => rest[rest.length - 1] as ExprNode],
    ['__FILTER__', () => rest[0] as ExprNode],
  ]);
  substitute(expanded, parts);
  return expanded;
}
