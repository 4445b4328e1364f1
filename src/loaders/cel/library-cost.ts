/**
 * The static cost of a call of the Kubernetes CEL libraries, after the API server's estimator
 * (k8s.io/apiserver `pkg/cel/library/cost.go`, `EstimateCallCost`): what one call costs beside
 * its target and arguments, from the sizes the estimate knows (string lengths, list lengths), and
 * the size of its result where the API server gives one. Like the rest of cosi's estimate it is
 * a lower bound of the API server's (`CostEstimate.Max`): a size it cannot find counts as 0 where
 * the API server would count the largest one.
 */

import type { CelType } from './cel-types.js';
import type { ExprNode } from './optional-syntax.js';

const STRING_TRAVERSAL_COST_FACTOR = 0.1;
const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
/** `MaxNameFormatRegexSize` of k8s.io/apiserver `pkg/cel/limits.go`. */
const MAX_NAME_FORMAT_REGEX_SIZE = 128;
/** `MaxFormatSize` of the same. */
const MAX_FORMAT_SIZE = 64;
/** The sizes the API server gives an IP when it compares one (`SizeEstimate{Min: 4, Max: 16}`). */
const MAX_IP_SIZE = 16;

/** What the estimate knows of the nodes of the expression. */
export interface LibraryCostContext {
  /** The most elements (characters, items) a node's value has, when known. */
  sizeOf(node: ExprNode): number | undefined;
  typeOf(node: ExprNode): CelType;
  /** The most characters an item of a list node has, when known. */
  itemSizeOf(list: ExprNode): number | undefined;
}

/** A library call's own cost, and the size of its result when the API server gives one. */
export interface LibraryCallCost {
  readonly cost: number;
  readonly resultSize?: number;
}

/** The functions whose call costs 1 whatever it is applied to. */
const UNIT = new Set([
  'masked',
  'prefixLength',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'isGlobalUnicast',
  'format.named',
  'sign',
  'asInteger',
  'isInteger',
  'asApproximateFloat',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
  'major',
  'minor',
  'patch',
  'getScheme',
  'getHostname',
  'getHost',
  'getPort',
  'getEscapedPath',
  'getQuery',
]);

/** The functions that parse their one string argument: a traversal of it. */
const PARSERS = new Set(['cidr', 'isIP', 'isCIDR', 'quantity', 'isQuantity', 'semver', 'isSemver']);

/** The list functions that traverse their list once (`isSorted`, `sum`, ...). */
const TRAVERSALS = new Set(['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf', 'includes']);

/** cel-go's `MultiplyByCostFactor`: the product, rounded up. */
function factor(size: number, costPerUnit: number): number {
  return Math.ceil(size * costPerUnit);
}

/**
 * The cost of a call of `fn` (a qualified name for a namespaced function: `ip.isCanonical`) on
 * `target` with `args`, as the API server estimates it; undefined for a function it leaves to
 * cel-go.
 */
export function libraryCallCost(
  fn: string,
  target: ExprNode | undefined,
  args: readonly ExprNode[],
  context: LibraryCostContext,
): LibraryCallCost | undefined {
  const size = (node: ExprNode | undefined): number =>
    node === undefined ? 0 : (context.sizeOf(node) ?? 0);
  const [first, second] = args;
  if (UNIT.has(fn)) return { cost: 1 };
  if (PARSERS.has(fn) && target === undefined && first !== undefined) {
    return { cost: factor(size(first), STRING_TRAVERSAL_COST_FACTOR) };
  }
  switch (fn) {
    case 'ip':
      // `cidr(c).ip()` is a member; `ip(s)` parses a string.
      if (target !== undefined) return { cost: 1 };
      return first === undefined
        ? undefined
        : { cost: factor(size(first), STRING_TRAVERSAL_COST_FACTOR) };
    case 'ip.isCanonical':
      return first === undefined
        ? undefined
        : { cost: factor(size(first), 2 * STRING_TRAVERSAL_COST_FACTOR) };
    case 'containsIP':
    case 'containsCIDR': {
      if (target === undefined || first === undefined) return undefined;
      let cost = factor(2 * MAX_IP_SIZE, STRING_TRAVERSAL_COST_FACTOR);
      if (fn === 'containsCIDR') cost += factor(MAX_IP_SIZE, STRING_TRAVERSAL_COST_FACTOR) + 1;
      if (context.typeOf(first).kind === 'string') {
        cost += factor(size(first), STRING_TRAVERSAL_COST_FACTOR);
      }
      return { cost };
    }
    case 'url':
    case 'jsonpatch.escapeKey':
      if (target !== undefined || first === undefined) return undefined;
      return {
        cost: factor(size(first), STRING_TRAVERSAL_COST_FACTOR),
        ...optionalSize(context.sizeOf(first)),
      };
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      if (target === undefined) return undefined;
      return {
        cost: factor(size(target), STRING_TRAVERSAL_COST_FACTOR),
        ...optionalSize(context.sizeOf(target)),
      };
    case 'replace':
      if (target === undefined || second === undefined) return undefined;
      return {
        cost: factor(size(target), 2 * STRING_TRAVERSAL_COST_FACTOR),
        ...optionalSize(replacedSize(context.sizeOf(target), first, second)),
      };
    case 'split': {
      if (target === undefined) return undefined;
      const limit = second === undefined ? undefined : intLiteral(second);
      return {
        cost: factor(size(target), 2 * STRING_TRAVERSAL_COST_FACTOR),
        ...optionalSize(limit ?? context.sizeOf(target)),
      };
    }
    case 'join': {
      if (target === undefined) return undefined;
      const items = context.sizeOf(target);
      const itemSize = context.typeOf(target).kind === 'list' ? context.itemSizeOf(target) : 0;
      if (items === undefined || itemSize === undefined) return { cost: 0 };
      let joined = items * itemSize;
      if (first !== undefined) joined += size(first) * Math.max(0, items - 1);
      return { cost: factor(joined, STRING_TRAVERSAL_COST_FACTOR), resultSize: joined };
    }
    case 'find':
    case 'findAll':
      if (target === undefined || first === undefined) return undefined;
      return {
        cost:
          factor(size(target) + 1, STRING_TRAVERSAL_COST_FACTOR) *
          factor(size(first), REGEX_STRING_LENGTH_COST_FACTOR),
        ...optionalSize(context.sizeOf(target)),
      };
    case 'validate':
      if (target === undefined || first === undefined) return undefined;
      return {
        cost: factor(
          factor(size(first), STRING_TRAVERSAL_COST_FACTOR),
          MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR,
        ),
      };
    default:
      break;
  }
  if (TRAVERSALS.has(fn) && target !== undefined) {
    const type = context.typeOf(target);
    if (type.kind === 'list') {
      const item = type.elem.kind;
      const itemCost =
        1 +
        (item === 'string' || item === 'bytes'
          ? factor(context.itemSizeOf(target) ?? 0, STRING_TRAVERSAL_COST_FACTOR)
          : 0);
      return { cost: size(target) * itemCost };
    }
    return {
      cost: fn === 'includes' ? size(target) : factor(size(target), STRING_TRAVERSAL_COST_FACTOR),
    };
  }
  return undefined;
}

/**
 * The cost of `a == b` on two values of one library type (the API server's `_==_` case): 1 for
 * IPs, CIDRs, quantities and semvers, a traversal of the largest URL or format; undefined for
 * other operands (cel-go's own equality).
 */
export function libraryEqualityCost(
  a: ExprNode,
  b: ExprNode,
  context: LibraryCostContext,
): number | undefined {
  const kind = libraryValueKind(a);
  if (kind === undefined || kind !== libraryValueKind(b)) return undefined;
  switch (kind) {
    case 'url': {
      // The API server reads the right operand's size twice (its `lhSize := rhs...`).
      const right = context.sizeOf(b);
      return factor(right ?? 1, STRING_TRAVERSAL_COST_FACTOR);
    }
    case 'format':
      return factor(MAX_FORMAT_SIZE, STRING_TRAVERSAL_COST_FACTOR);
    default:
      return 1;
  }
}

/** The library type a node's value certainly has, from the call that makes it. */
function libraryValueKind(node: ExprNode): string | undefined {
  if (node.exprKind.case !== 'callExpr') return undefined;
  const call = node.exprKind.value as { function: string; target?: ExprNode };
  const target = call.target;
  const namespace =
    target?.exprKind.case === 'identExpr' ? (target.exprKind.value as { name: string }).name : '';
  if (target === undefined || namespace === 'format') {
    switch (namespace === 'format' ? 'format' : call.function) {
      case 'ip':
        return 'ip';
      case 'cidr':
        return 'cidr';
      case 'quantity':
        return 'quantity';
      case 'semver':
        return 'semver';
      case 'url':
        return 'url';
      case 'format':
        return call.function === 'named' ? undefined : 'format';
      default:
        return undefined;
    }
  }
  if (call.function === 'ip') return 'ip';
  if (call.function === 'masked') return 'cidr';
  if (call.function === 'add' || call.function === 'sub') return 'quantity';
  // `format.named(n).value()`.
  if (call.function === 'value' && target.exprKind.case === 'callExpr') {
    const named = target.exprKind.value as { function: string; target?: ExprNode };
    const on = named.target?.exprKind;
    if (
      named.function === 'named' &&
      on?.case === 'identExpr' &&
      (on.value as { name: string }).name === 'format'
    ) {
      return 'format';
    }
  }
  return undefined;
}

function optionalSize(size: number | undefined): { resultSize?: number } {
  return size === undefined ? {} : { resultSize: size };
}

/** An integer literal's value. */
function intLiteral(node: ExprNode): number | undefined {
  if (node.exprKind.case !== 'constExpr') return undefined;
  const constant = (node.exprKind.value as { constantKind: { case?: string; value?: unknown } })
    .constantKind;
  return constant.case === 'int64Value' ? Number(constant.value) : undefined;
}

/** A string literal's length in code points. */
function stringLiteralSize(node: ExprNode | undefined): number | undefined {
  if (node?.exprKind.case !== 'constExpr') return undefined;
  const constant = (node.exprKind.value as { constantKind: { case?: string; value?: unknown } })
    .constantKind;
  if (constant.case !== 'stringValue') return undefined;
  // CEL's size of a string: its code points.
  let count = 0;
  for (const _ of constant.value as string) count++;
  return count;
}

/**
 * The most characters `s.replace(from, to)` may have, as the API server bounds it, when `from`
 * and `to` are literals (their least and most sizes are then known); undefined otherwise.
 */
function replacedSize(
  size: number | undefined,
  from: ExprNode | undefined,
  to: ExprNode,
): number | undefined {
  const fromSize = stringLiteralSize(from);
  const toSize = stringLiteralSize(to);
  if (size === undefined || fromSize === undefined || toSize === undefined) return undefined;
  if (fromSize === 0) return (size + 1) * toSize + size;
  if (toSize <= fromSize) return size;
  return Math.ceil(size / fromSize) * toSize;
}
