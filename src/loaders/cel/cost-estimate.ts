/**
 * The static cost of a rule, after cel-go's estimator (`checker/cost.go`) with the API server's
 * size estimator (apiextensions `schema/cel/compilation.go`): the most a rule's evaluation may
 * cost on any value its schema admits, from the schema's `maxItems`, `maxProperties` and
 * `maxLength` (or, without them, how many elements fit in the largest request). The API server
 * refuses a CRD whose rules' estimates exceed its budgets ({@link checkCostBudgets}).
 *
 * The Kubernetes libraries' functions cost what the API server's estimator says
 * (`library-cost.ts`). The estimate here is a lower bound of the API server's: every term cosi
 * cannot tell exactly (a size it cannot find, a function of cel-go's extensions) counts as
 * nothing, so a rule cosi finds too costly is one the API server finds too costly as well; one
 * that is too costly only through such terms is not reported.
 */

import type { CelType } from './cel-types.js';
import { MAX_REQUEST_SIZE_BYTES } from './cel-types.js';
import type { ExprNode } from './type-check.js';
import { extensionCallCost } from './extension-cost.js';
import { libraryCallCost, libraryEqualityCost, type LibraryCostContext } from './library-cost.js';
import { literalEntries } from './literal-entries.js';

/** The most a single rule (or message expression) may be estimated to cost. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;

/** The most all the rules of a CRD's schema together may be estimated to cost. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

const STRING_TRAVERSAL_COST_FACTOR = 0.1;
const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
const LIST_CREATE_BASE_COST = 10;
const MAP_CREATE_BASE_COST = 30;

/** The accumulator of the macros: its paths are not followed (cel-go's `isAccumulatorVar`). */
const ACCUMULATORS = new Set(['@result', '__result__']);

/** Calls that may be macros cosi's parser leaves unexpanded: only their target is counted. */
const MACRO_LIKE = new Set([
  'all',
  'exists',
  'exists_one',
  'existsOne',
  'map',
  'filter',
  'transformList',
  'transformMap',
  'transformMapEntry',
  'sortBy',
  'bind',
  'optMap',
  'optFlatMap',
  'block',
]);

/** Operators and functions that cost 1 besides their arguments (cel-go's O(1) default). */
const UNIT_COST = new Set([
  '@not_strictly_false',
  '!_',
  '-_',
  '_-_',
  '_*_',
  '_/_',
  '_%_',
  'size',
  'int',
  'uint',
  'double',
  'bool',
  'duration',
  'timestamp',
  'type',
  // cel-go's optional library: O(1), as every function cel-go has no estimate for.
  '_?._',
  '_[?_]',
  'value',
  'hasValue',
  'or',
  'orValue',
  'optional.of',
  'optional.ofNonZeroValue',
  'optional.none',
  // The extension functions cel-go has no estimator of (the strings extension at the version the
  // API server uses, the lists extension's `first` and `last`).
  'charAt',
  'first',
  'last',
]);

const COMPARISONS = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_']);

/** Options of {@link estimateCost}. */
export interface EstimateCostOptions {
  /**
   * The most elements a value of a type has when nothing else tells (the API server's size
   * estimator, for what is not in the schema); unknown when omitted.
   */
  readonly unknownSize?: (type: CelType) => number | undefined;
}

/** The variables a rule has besides its comprehensions': other identifiers name namespaces. */
const VARIABLES = new Set(['self', 'oldSelf']);

interface Local {
  readonly path: readonly string[] | undefined;
  readonly size: number | undefined;
}

/**
 * The estimated most an expression costs (cel-go's `CostEstimate.Max`, as a lower bound of it).
 * `types` are the node types of its type check; `self` the declared type of the rule's node, from
 * which the sizes of `self.a.b`, `oldSelf.a` and their items are read.
 */
export function estimateCost(
  expr: ExprNode,
  types: ReadonlyMap<ExprNode, CelType>,
  self: CelType | undefined,
  options: EstimateCostOptions = {},
): number {
  const paths = new Map<ExprNode, readonly string[]>();
  const sizes = new Map<ExprNode, number>();
  const locals: Map<string, Local>[] = [];
  const typeOf = (node: ExprNode): CelType => types.get(node) ?? { kind: 'dyn' };

  const local = (name: string): Local | undefined => {
    for (let i = locals.length - 1; i >= 0; i--) {
      const found = locals[i]?.get(name);
      if (found !== undefined) return found;
    }
    return undefined;
  };

  /** The most elements (characters, bytes, items) a node's value has, when known. */
  const sizeOf = (node: ExprNode): number | undefined => {
    const computed = sizes.get(node);
    if (computed !== undefined) return computed;
    const literal = literalSize(node);
    if (literal !== undefined) return literal;
    const path = paths.get(node);
    if (path !== undefined && path.length > 0 && !ACCUMULATORS.has(path[0] ?? '')) {
      const declared = sizeAtPath(self, path.slice(1));
      if (declared !== undefined) return declared;
    }
    const estimated = options.unknownSize?.(typeOf(node));
    if (estimated !== undefined) return estimated;
    if (isScalar(typeOf(node))) return 1;
    if (node.exprKind.case === 'identExpr') {
      return local((node.exprKind.value as { name: string }).name)?.size;
    }
    return undefined;
  };
  const knownSize = (node: ExprNode): number => sizeOf(node) ?? 0;
  const library: LibraryCostContext = {
    sizeOf,
    typeOf,
    itemSizeOf: (list) => {
      const type = typeOf(list);
      const path = paths.get(list);
      if (path !== undefined && path.length > 0 && !ACCUMULATORS.has(path[0] ?? '')) {
        const declared = sizeAtPath(self, [...path.slice(1), '@items']);
        if (declared !== undefined) return declared;
      }
      return type.kind === 'list' ? options.unknownSize?.(type.elem) : undefined;
    },
  };
  /** The namespace a call's target names (`ip` of `ip.isCanonical(s)`), if it is not a variable. */
  const namespaceOf = (target: ExprNode | undefined): string | undefined => {
    if (target?.exprKind.case !== 'identExpr') return undefined;
    const name = (target.exprKind.value as { name: string }).name;
    return VARIABLES.has(name) || local(name) !== undefined ? undefined : name;
  };

  const cost = (node: ExprNode): number => {
    const v = node.exprKind.value as Record<string, unknown>;
    switch (node.exprKind.case) {
      case 'identExpr': {
        const name = v.name as string;
        const bound = local(name);
        if (bound !== undefined) {
          if (bound.path !== undefined) paths.set(node, bound.path);
        } else paths.set(node, [name]);
        return 1;
      }
      case 'selectExpr': {
        const operand = v.operand as ExprNode;
        if (v.testOnly === true) return cost(operand);
        let total = cost(operand);
        const kind = typeOf(operand).kind;
        if (kind === 'map' || kind === 'object') total += 1;
        const path = paths.get(operand);
        if (path !== undefined) paths.set(node, [...path, v.field as string]);
        return total;
      }
      case 'listExpr':
        return sum((v.elements as ExprNode[]).map(cost)) + LIST_CREATE_BASE_COST;
      case 'structExpr': {
        let total = 0;
        for (const entry of literalEntries(v)) {
          if (entry.key !== undefined) total += cost(entry.key);
          total += cost(entry.value);
        }
        return v.messageName ? total : total + MAP_CREATE_BASE_COST;
      }
      case 'comprehensionExpr':
        return comprehensionCost(node, v);
      case 'callExpr':
        return callCost(node, v);
      default:
        return 0;
    }
  };

  const comprehensionCost = (node: ExprNode, v: Record<string, unknown>): number => {
    const range = v.iterRange as ExprNode;
    const init = v.accuInit as ExprNode;
    let total = cost(range) + cost(init);
    const frame = new Map<string, Local>();
    locals.push(frame);
    frame.set(v.accuVar as string, { path: paths.get(init), size: sizeOf(init) });
    const rangePath = paths.get(range);
    const rangeKind = typeOf(range).kind;
    const list = range.exprKind.case === 'listExpr' || rangeKind === 'list';
    const iterVar2 = typeof v.iterVar2 === 'string' ? v.iterVar2 : '';
    if (iterVar2 !== '') {
      frame.set(v.iterVar as string, {
        path: rangePath && [...rangePath, list ? '@indices' : '@keys'],
        size: undefined,
      });
      frame.set(iterVar2, {
        path: rangePath && [...rangePath, list ? '@items' : '@values'],
        size: undefined,
      });
    } else {
      frame.set(v.iterVar as string, {
        path: rangePath && [...rangePath, list ? '@items' : '@keys'],
        size: undefined,
      });
    }
    const loop = cost(v.loopCondition as ExprNode) + cost(v.loopStep as ExprNode);
    total += cost(v.result as ExprNode);
    locals.pop();
    const count = knownSize(range);
    total += count * loop;
    const initKind = init.exprKind.case;
    if (initKind === 'constExpr') {
      const size = literalSize(init);
      if (size !== undefined) sizes.set(node, size);
    } else if (initKind === 'listExpr' || initKind === 'structExpr') sizes.set(node, count);
    return total;
  };

  /**
   * cel-go's `sortBy` macro (`ext/lists.go` `sortByMacro`) as its estimator sees the expansion: a
   * comprehension over an empty list (`[]`) whose accumulator binds the list, with the result
   * `@input.@sortByAssociatedKeys(@input.map(v, key))`. The `map` is a range (the bound list),
   * an empty list to start, and per item its step `@result + [key]`; the sort is
   * `estimateListSortBy` over the keys.
   */
  const sortByCost = (node: ExprNode, list: ExprNode, variable: string, key: ExprNode): number => {
    const listCost = cost(list);
    const items = knownSize(list);
    const listPath = paths.get(list);
    locals.push(
      new Map([[variable, { path: listPath && [...listPath, '@items'], size: undefined }]]),
    );
    const keyCost = cost(key);
    locals.pop();
    const step = 1 + keyCost + LIST_CREATE_BASE_COST + 1;
    const keys = 1 + LIST_CREATE_BASE_COST + items * step + 1;
    const keyKind = typeOf(key).kind;
    const sortFactor =
      keyKind === 'string' || keyKind === 'bytes' ? 2 + STRING_TRAVERSAL_COST_FACTOR : 2;
    const sort = Math.ceil(items * items * sortFactor) + 1 + LIST_CREATE_BASE_COST;
    const size = sizeOf(list);
    if (size !== undefined) sizes.set(node, size);
    return LIST_CREATE_BASE_COST + listCost + 1 + keys + sort;
  };

  const callCost = (node: ExprNode, v: Record<string, unknown>): number => {
    const name = v.function as string;
    const target = v.target as ExprNode | undefined;
    const args = v.args as ExprNode[];
    if (name === 'dyn' && target === undefined && args.length === 1) {
      const [arg] = args as [ExprNode];
      const total = 1 + cost(arg);
      const size = sizeOf(arg);
      if (size !== undefined) sizes.set(node, size);
      return total;
    }
    const [variable, key] = args;
    if (
      name === 'sortBy' &&
      target !== undefined &&
      args.length === 2 &&
      variable?.exprKind.case === 'identExpr' &&
      key !== undefined
    ) {
      return sortByCost(node, target, (variable.exprKind.value as { name: string }).name, key);
    }
    if (MACRO_LIKE.has(name) && args.length >= 2) return target === undefined ? 0 : cost(target);
    const namespace = namespaceOf(target);
    const argCosts = args.map(cost);
    const argSum = sum(argCosts);
    const [a, b] = args;
    if (namespace === 'strings' && name === 'quote' && a !== undefined) {
      // cel-go's `strings.quote`: a traversal; each character may be escaped.
      const size = sizeOf(a);
      if (size !== undefined) sizes.set(node, size * 2 + 2);
      return factor(knownSize(a), STRING_TRAVERSAL_COST_FACTOR) + argSum;
    }
    if (
      target === undefined &&
      name === 'bytes' &&
      a !== undefined &&
      args.length === 1 &&
      typeOf(a).kind === 'string'
    ) {
      // cel-go's string-to-bytes conversion: a traversal; a character is at most 4 bytes.
      const size = sizeOf(a);
      if (size !== undefined) sizes.set(node, size * 4);
      return factor(knownSize(a), STRING_TRAVERSAL_COST_FACTOR) + argSum;
    }
    if (namespace !== undefined) {
      // A namespaced function (`ip.isCanonical`, `format.named`): its target is its name.
      const qualified = `${namespace}.${name}`;
      const own =
        extensionCallCost(qualified, undefined, args, library) ??
        libraryCallCost(qualified, undefined, args, library);
      if (own?.resultSize !== undefined) sizes.set(node, own.resultSize);
      return (own?.cost ?? 1) + argSum;
    }
    const targetCost = target === undefined ? 0 : cost(target);
    const own =
      extensionCallCost(name, target, args, library) ??
      libraryCallCost(name, target, args, library);
    if (own !== undefined) {
      if (own.resultSize !== undefined) sizes.set(node, own.resultSize);
      return own.cost + targetCost + argSum;
    }
    if (target === undefined && name === '_==_' && a !== undefined && b !== undefined) {
      const equality = libraryEqualityCost(a, b, library);
      if (equality !== undefined) return equality + argSum;
    }
    if (target === undefined && (name === '_&&_' || name === '_||_')) return argSum;
    if (target === undefined && name === '_?_:_' && args.length === 3) {
      const [condition = 0, yes = 0, no = 0] = argCosts;
      const [, left, right] = args as [ExprNode, ExprNode, ExprNode];
      const l = sizeOf(left);
      const r = sizeOf(right);
      if (l !== undefined && r !== undefined) sizes.set(node, Math.max(l, r));
      return condition + Math.max(yes, no);
    }
    if (target === undefined && name === '_[_]' && a !== undefined) {
      const kind = typeOf(a).kind;
      const path = paths.get(a);
      if (kind === 'list' || kind === 'map') {
        if (path !== undefined) paths.set(node, [...path, kind === 'list' ? '@items' : '@values']);
        return 1 + argSum;
      }
      // cel-go's index overloads cost 1 whatever the operand (`dyn` included).
      return kind === 'dyn' ? 1 + argSum : argSum;
    }
    if (target === undefined && COMPARISONS.has(name) && a !== undefined && b !== undefined) {
      const kinds = [typeOf(a).kind, typeOf(b).kind];
      const traversed =
        name === '_==_' ||
        name === '_!=_' ||
        kinds.every((kind) => kind === 'string') ||
        kinds.every((kind) => kind === 'bytes');
      if (traversed) {
        // cel-go traverses the smaller of the two most sizes: a known one bounds an unknown one.
        const smallest = Math.min(sizeOf(a) ?? Infinity, sizeOf(b) ?? Infinity);
        return (
          factor(Number.isFinite(smallest) ? smallest : 0, STRING_TRAVERSAL_COST_FACTOR) + argSum
        );
      }
      return kinds.every((kind) => kind !== 'dyn' && kind !== 'optional') ? 1 + argSum : argSum;
    }
    if (target === undefined && name === '_+_' && a !== undefined && b !== undefined) {
      const kind = typeOf(a).kind;
      const sizeA = sizeOf(a);
      const sizeB = sizeOf(b);
      const joined = sizeA !== undefined && sizeB !== undefined ? sizeA + sizeB : undefined;
      if (kind === 'list' && typeOf(b).kind === 'list') {
        if (joined !== undefined) sizes.set(node, joined);
        return 1 + argSum;
      }
      if ((kind === 'string' || kind === 'bytes') && typeOf(b).kind === kind) {
        if (joined !== undefined) sizes.set(node, joined);
        return factor(joined ?? 0, STRING_TRAVERSAL_COST_FACTOR) + argSum;
      }
      return kind !== 'dyn' && typeOf(b).kind !== 'dyn' ? 1 + argSum : argSum;
    }
    if (target === undefined && name === '@in' && b !== undefined) {
      const kind = typeOf(b).kind;
      if (kind === 'list') return knownSize(b) + argSum;
      return kind === 'map' ? 1 + argSum : argSum;
    }
    if (target !== undefined && typeOf(target).kind === 'string' && a !== undefined) {
      if (name === 'contains' && args.length === 1) {
        return (
          factor(knownSize(target), STRING_TRAVERSAL_COST_FACTOR) *
            factor(knownSize(a), STRING_TRAVERSAL_COST_FACTOR) +
          targetCost +
          argSum
        );
      }
      if ((name === 'startsWith' || name === 'endsWith') && args.length === 1) {
        return factor(knownSize(a), STRING_TRAVERSAL_COST_FACTOR) + targetCost + argSum;
      }
      if (name === 'matches' && args.length === 1) {
        return (
          factor(knownSize(target) + 1, STRING_TRAVERSAL_COST_FACTOR) *
            factor(knownSize(a), REGEX_STRING_LENGTH_COST_FACTOR) +
          targetCost +
          argSum
        );
      }
    }
    if (UNIT_COST.has(name) && (name !== 'size' || args.length + (target ? 1 : 0) === 1)) {
      return 1 + targetCost + argSum;
    }
    return targetCost + argSum;
  };

  return cost(expr);
}

/** cel-go's `multiplyByCostFactor`: the product, rounded up. */
function factor(size: number, costPerUnit: number): number {
  return Math.ceil(size * costPerUnit);
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** The size of a literal: a string's code points, a bytes' length, a list's or map's entries. */
function literalSize(node: ExprNode): number | undefined {
  const v = node.exprKind.value as Record<string, unknown>;
  switch (node.exprKind.case) {
    case 'constExpr': {
      const constant = v.constantKind as { case: string | undefined; value?: unknown };
      if (constant.case === 'stringValue') return codePoints(constant.value as string);
      if (constant.case === 'bytesValue') return (constant.value as Uint8Array).length;
      return constant.case === undefined ? undefined : 1;
    }
    case 'listExpr':
      return (v.elements as unknown[]).length;
    case 'structExpr':
      return v.messageName ? undefined : (v.entries as unknown[]).length;
    default:
      return undefined;
  }
}

/** How many code points a string has: CEL's size of a string. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** cel-go's scalars: of a constant size whatever their value. */
function isScalar(type: CelType): boolean {
  switch (type.kind) {
    case 'bool':
    case 'double':
    case 'duration':
    case 'int':
    case 'timestamp':
    case 'uint':
      return true;
    case 'optional':
      return isScalar(type.value);
    default:
      return false;
  }
}

/**
 * The declared `maxElements` at `path` below the rule's node (`@items` and `@values` are a list's
 * items or a map's values, `@keys` a map's keys, anything else a field by its escaped name), as
 * the API server's size estimator walks it; undefined when the path leaves the schema.
 */
function sizeAtPath(root: CelType | undefined, path: readonly string[]): number | undefined {
  let node = root;
  for (const step of path) {
    if (node === undefined) return undefined;
    if (step === '@items' || step === '@values') {
      node = node.kind === 'list' ? node.elem : node.kind === 'map' ? node.value : undefined;
    } else if (step === '@keys') {
      node = node.kind === 'map' ? node.key : undefined;
    } else {
      node = node.kind === 'object' ? node.fields.get(step) : undefined;
    }
  }
  return node?.maxElements;
}

/**
 * How many times a rule on a node may be evaluated for one object, when the schema above it
 * does not bound it (the API server's `maxCardinality`): how many of its smallest values fit in
 * the largest request.
 */
export function unboundedCardinality(self: CelType | undefined): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / ((self?.minSize ?? 1) + 1));
}

/**
 * The API server's sentence for a cost over its limit (`getCostErrorMessage`): the factor
 * `more than 100x`, with six decimals under 1.5 (`1.048576x`), else with one (`2.5x`).
 */
export function costExceededMessage(what: string, cost: number, limit: number): string {
  const exceed = cost / limit;
  let factorText: string;
  if (exceed > 100) factorText = 'more than 100x';
  else if (exceed < 1.5) factorText = `${exceed.toFixed(6)}x`;
  else factorText = `${exceed.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${factorText} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
