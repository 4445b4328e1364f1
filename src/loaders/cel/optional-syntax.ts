/**
 * cel-go's optional syntax, which the API server enables with its optional library (Kubernetes
 * 1.28): `a.?b` (select a field if present), `a[?k]` (index if present), optional list
 * elements `[a, ?b]` and map entries `{?k: v}`, and the macros `optMap` and `optFlatMap`.
 * `@bufbuild/cel` does not parse it, so the source is rewritten first, keeping every character
 * at its place (each `?` of the syntax becomes a space, so `a.?b` parses as `a. b`, and every
 * position in an error stays right), and the parsed expression is then given the shape cel-go's
 * parser gives it: `_?._(a, 'b')`, `_[?_](a, k)`, a list's `optionalIndices`, a map entry's
 * `optionalEntry`. Where each `?` belongs is told by a scan of the source's tokens (strings and
 * comments skipped): after `.`, after an index's `[`, or first in a list element or map entry.
 */

import { parse } from '@bufbuild/cel';

/** cel-go's name of the optional field selection `a.?b`. */
export const OPT_SELECT = '_?._';
/** cel-go's name of the optional index `a[?k]`. */
export const OPT_INDEX = '_[?_]';

type ParsedExpr = ReturnType<typeof parse>;

/** Where a `?` of the optional syntax was, by the offset of the token the parser places it at. */
type Site =
  | { readonly kind: 'select'; readonly offset: number }
  | { readonly kind: 'index'; readonly offset: number }
  | { readonly kind: 'element'; readonly offset: number; readonly index: number }
  | { readonly kind: 'entry'; readonly offset: number; readonly index: number };

/** An open bracket during the scan. */
interface Open {
  readonly char: '(' | '[' | '{';
  /** `[` of an index (`a[k]`), not of a list. */
  readonly index: boolean;
  readonly offset: number;
  commas: number;
}

/** A CEL syntax error at a place of the source, worded as `@bufbuild/cel` words its own. */
export class OptionalSyntaxError extends Error {}

/**
 * Parses `source` as cel-go parses it with the optional syntax enabled. Throws as `parse` does
 * for a syntax error, with the position in the original source.
 */
export function parseOptionalSyntax(source: string): ParsedExpr {
  const { text, sites } = blankOptionalMarks(source);
  const parsed = parse(text);
  if (sites.length > 0) markOptionals(parsed, sites, source);
  expandOptionalMacros(parsed);
  return parsed;
}

/** Whether a character may continue an identifier. */
function isIdentPart(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95
  );
}

/**
 * The source with each `?` of the optional syntax replaced by a space, and where each was. A
 * linear scan: strings (any quoting, raw or not, with a `b`/`r` prefix), comments, numbers and
 * identifiers are skipped as tokens.
 */
export function blankOptionalMarks(source: string): { text: string; sites: Site[] } {
  const sites: Site[] = [];
  const blanks: number[] = [];
  const stack: Open[] = [];
  /** The previous token: `value` when it ends an operand (`a`, `1`, `'s'`, `)`, `]`, `}`). */
  let previous: string = '';
  let previousOffset = -1;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i] as string;
    const code = source.charCodeAt(i);
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (isIdentPart(code) && !(code >= 48 && code <= 57)) {
      while (i < n && isIdentPart(source.charCodeAt(i))) i++;
      const word = source.slice(start, i);
      const quote = source[i];
      if ((quote === '"' || quote === "'") && /^(?:[rR][bB]?|[bB][rR]?)$/.test(word)) {
        i = skipString(source, i, /[rR]/.test(word));
        previous = 'value';
      } else previous = word === 'in' ? 'in' : 'value';
      previousOffset = start;
      continue;
    }
    if (code >= 48 && code <= 57) {
      i = skipNumber(source, i);
      previous = 'value';
      previousOffset = start;
      continue;
    }
    if (c === '"' || c === "'") {
      i = skipString(source, i, false);
      previous = 'value';
      previousOffset = start;
      continue;
    }
    if (c === '`') {
      const end = source.indexOf('`', i + 1);
      i = end < 0 ? n : end + 1;
      previous = 'value';
      previousOffset = start;
      continue;
    }
    i++;
    const top = stack[stack.length - 1];
    if (c === '?') {
      if (previous === '.') {
        sites.push({ kind: 'select', offset: previousOffset });
        blanks.push(start);
      } else if (previous === '[' && top?.char === '[' && top.index) {
        sites.push({ kind: 'index', offset: top.offset });
        blanks.push(start);
      } else if ((previous === '[' || previous === ',') && top?.char === '[') {
        sites.push({ kind: 'element', offset: top.offset, index: top.commas });
        blanks.push(start);
      } else if ((previous === '{' || previous === ',') && top?.char === '{') {
        sites.push({ kind: 'entry', offset: top.offset, index: top.commas });
        blanks.push(start);
      }
      previous = '?';
    } else if (c === '(' || c === '[' || c === '{') {
      stack.push({ char: c, index: c === '[' && previous === 'value', offset: start, commas: 0 });
      previous = c;
    } else if (c === ')' || c === ']' || c === '}') {
      stack.pop();
      previous = 'value';
    } else {
      if (c === ',' && top !== undefined) top.commas++;
      previous = c;
    }
    previousOffset = start;
  }
  if (blanks.length === 0) return { text: source, sites };
  const chars = source.split('');
  for (const at of blanks) chars[at] = ' ';
  return { text: chars.join(''), sites };
}

/** The offset after the string literal whose quote is at `i`. */
function skipString(source: string, i: number, raw: boolean): number {
  const quote = source[i] as string;
  const triple = source.startsWith(quote.repeat(3), i);
  const close = triple ? quote.repeat(3) : quote;
  let j = i + close.length;
  while (j < source.length) {
    const c = source[j];
    if (!raw && c === '\\') {
      j += 2;
      continue;
    }
    if (!triple && c === '\n') return j;
    if (source.startsWith(close, j)) return j + close.length;
    j++;
  }
  return j;
}

/** The offset after the number literal at `i` (`12`, `0x1F`, `1.5e3`, `2u`). */
function skipNumber(source: string, i: number): number {
  const digit = (at: number) => {
    const code = source.charCodeAt(at);
    return code >= 48 && code <= 57;
  };
  let j = i;
  if (source[j] === '0' && (source[j + 1] === 'x' || source[j + 1] === 'X')) {
    j += 2;
    while (j < source.length && /[0-9a-fA-F]/.test(source[j] as string)) j++;
  } else {
    while (digit(j)) j++;
    if (source[j] === '.' && digit(j + 1)) {
      j++;
      while (digit(j)) j++;
    }
    if (
      (source[j] === 'e' || source[j] === 'E') &&
      /^[+-]?[0-9]/.test(source.slice(j + 1, j + 3))
    ) {
      j += 2;
      while (digit(j)) j++;
    }
  }
  if (source[j] === 'u' || source[j] === 'U') j++;
  return j;
}

/** A parsed expression's node, read loosely (cel-spec's `Expr` message). */
export interface ExprNode {
  id: bigint;
  exprKind: { case: string | undefined; value?: unknown };
}

type Node = ExprNode & { exprKind: { case: string | undefined; value: Record<string, unknown> } };

/** Every expression node of `expr`, parents before children. */
export function expressionNodes(expr: unknown): Node[] {
  const out: Node[] = [];
  const stack: unknown[] = [expr];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      for (let k = item.length - 1; k >= 0; k--) stack.push(item[k]);
      continue;
    }
    if ((item as { $typeName?: unknown }).$typeName === 'cel.expr.Expr') out.push(item as Node);
    for (const [key, value] of Object.entries(item)) {
      if (key !== '$typeName' && typeof value === 'object') stack.push(value);
    }
  }
  return out;
}

/** "line:col" (1-based) of an offset, as the parser's messages give it. */
function place(source: string, offset: number): string {
  let line = 1;
  let column = 1;
  for (let k = 0; k < offset && k < source.length; k++) {
    if (source[k] === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return `${line}:${column}`;
}

function stringConst(id: bigint, value: string): ExprNode {
  return {
    $typeName: 'cel.expr.Expr',
    id,
    exprKind: {
      case: 'constExpr',
      value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'stringValue', value } },
    },
  } as unknown as ExprNode;
}

/** Gives the parsed expression cel-go's shape at each site of the optional syntax. */
function markOptionals(parsed: ParsedExpr, sites: readonly Site[], source: string): void {
  const positions = parsed.sourceInfo?.positions ?? {};
  const byOffset = new Map<number, Node[]>();
  const nodes = expressionNodes(parsed.expr);
  let nextId = 1n;
  for (const node of nodes) {
    if (node.id >= nextId) nextId = node.id + 1n;
    const offset = positions[String(node.id)];
    if (offset === undefined) continue;
    const list = byOffset.get(offset);
    if (list === undefined) byOffset.set(offset, [node]);
    else list.push(node);
  }
  const fail = (offset: number, message: string): never => {
    throw new OptionalSyntaxError(`<input>:${place(source, offset)}: ${message}`);
  };
  for (const site of sites) {
    const at = byOffset.get(site.offset) ?? [];
    switch (site.kind) {
      case 'select': {
        const node = at.find((candidate) => candidate.exprKind.case === 'selectExpr');
        if (node === undefined || node.exprKind.value.testOnly === true) {
          fail(site.offset, "unsupported syntax '.?'");
          break;
        }
        const { operand, field } = node.exprKind.value as { operand: ExprNode; field: string };
        node.exprKind = {
          case: 'callExpr',
          value: {
            $typeName: 'cel.expr.Expr.Call',
            function: OPT_SELECT,
            args: [operand, stringConst(nextId++, field)],
          },
        };
        break;
      }
      case 'index': {
        const node = at.find(
          (candidate) =>
            candidate.exprKind.case === 'callExpr' && candidate.exprKind.value.function === '_[_]',
        );
        if (node === undefined) fail(site.offset, "unsupported syntax '[?'");
        else node.exprKind.value.function = OPT_INDEX;
        break;
      }
      case 'element': {
        const node = at.find((candidate) => candidate.exprKind.case === 'listExpr');
        if (node === undefined) fail(site.offset, "unsupported syntax '?'");
        else (node.exprKind.value.optionalIndices as number[]).push(site.index);
        break;
      }
      case 'entry': {
        const node = at.find((candidate) => candidate.exprKind.case === 'structExpr');
        const entry = (node?.exprKind.value.entries as { optionalEntry: boolean }[] | undefined)?.[
          site.index
        ];
        if (entry === undefined) fail(site.offset, "unsupported syntax '?'");
        else entry.optionalEntry = true;
        break;
      }
    }
  }
}

/** Ids for the nodes an expansion adds: above every id of the parsed expression. */
function idSource(parsed: ParsedExpr): () => bigint {
  let next = 1n;
  for (const node of expressionNodes(parsed.expr)) if (node.id >= next) next = node.id + 1n;
  return () => next++;
}

/**
 * cel-go's `optMap` and `optFlatMap` macros: `o.optMap(v, e)` is `o.hasValue() ?
 * optional.of(<e with v bound to o.value()>) : optional.none()`, the binding a comprehension
 * over no elements whose accumulator is `v`; `optFlatMap` leaves out the `optional.of`.
 */
function expandOptionalMacros(parsed: ParsedExpr): void {
  const macros = expressionNodes(parsed.expr).filter((node) => {
    const v = node.exprKind.value;
    return (
      node.exprKind.case === 'callExpr' &&
      (v.function === 'optMap' || v.function === 'optFlatMap') &&
      v.target !== undefined &&
      (v.args as unknown[]).length === 2
    );
  });
  if (macros.length === 0) return;
  const newId = idSource(parsed);
  const expr = (exprKind: { case: string; value: object }): ExprNode =>
    ({ $typeName: 'cel.expr.Expr', id: newId(), exprKind }) as unknown as ExprNode;
  const call = (fn: string, args: ExprNode[], target?: ExprNode): ExprNode =>
    expr({
      case: 'callExpr',
      value: {
        $typeName: 'cel.expr.Expr.Call',
        function: fn,
        args,
        ...(target === undefined ? {} : { target }),
      },
    });
  // Innermost first, so an expansion copies only expanded targets.
  for (const node of macros.reverse()) {
    const v = node.exprKind.value as { function: string; target: ExprNode; args: ExprNode[] };
    const [variable, body] = v.args as [Node, ExprNode];
    if (variable.exprKind.case !== 'identExpr') {
      throw new OptionalSyntaxError(`${v.function}() variable name must be a simple identifier`);
    }
    const name = variable.exprKind.value.name as string;
    const bound = {
      $typeName: 'cel.expr.Expr',
      id: newId(),
      exprKind: bindingComprehension(
        name,
        call('value', [], copyExpr(v.target, newId)),
        body,
        newId,
      ),
    } as unknown as ExprNode;
    node.exprKind = {
      case: 'callExpr',
      value: {
        $typeName: 'cel.expr.Expr.Call',
        function: '_?_:_',
        args: [
          call('hasValue', [], v.target),
          v.function === 'optMap' ? call('optional.of', [bound]) : bound,
          call('optional.none', []),
        ],
      },
    };
  }
}

/** A deep copy of an expression with fresh ids. */
export function copyExpr(node: ExprNode, newId: () => bigint): ExprNode {
  const copy = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
    if (Array.isArray(value)) return value.map(copy);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = copy(item);
    if (out.$typeName === 'cel.expr.Expr') out.id = newId();
    return out;
  };
  return copy(node) as ExprNode;
}

/**
 * `name` bound to `init` in `result`, as cel-go binds a variable (`cel.bind`, `optMap`): a
 * comprehension over no elements whose accumulator `name` starts as `init`.
 */
export function bindingComprehension(
  name: string,
  init: ExprNode,
  result: ExprNode,
  newId: () => bigint,
): ExprNode['exprKind'] {
  const expr = (exprKind: { case: string; value: object }): ExprNode =>
    ({ $typeName: 'cel.expr.Expr', id: newId(), exprKind }) as unknown as ExprNode;
  return {
    case: 'comprehensionExpr',
    value: {
      $typeName: 'cel.expr.Expr.Comprehension',
      iterVar: '#unused',
      iterVar2: '',
      iterRange: expr({
        case: 'listExpr',
        value: { $typeName: 'cel.expr.Expr.CreateList', elements: [], optionalIndices: [] },
      }),
      accuVar: name,
      accuInit: init,
      loopCondition: expr({
        case: 'constExpr',
        value: {
          $typeName: 'cel.expr.Constant',
          constantKind: { case: 'boolValue', value: false },
        },
      }),
      loopStep: expr({ case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name } }),
      result,
    },
  };
}
