/**
 * chainsaw's `(expression)` keys (kyverno-json assertion trees), as kro's e2e assert files and
 * many operators' use them: `(conditions[?type == 'Ready'])` selects the Ready condition, whose
 * value below is then matched partially; `(length(items))` is a number to compare.
 *
 * A bounded subset of JMESPath, parsed and walked here, never run as code:
 *
 * - fields `a.b`, `"quoted-field"`, `@` (the node itself), indexes `[0]` and `[-1]`;
 * - projections: `list[*].name` and filters `list[?type == 'Ready'].status`;
 * - literals: `'raw string'`, `` `JSON` `` (`` `3` ``, `` `true` ``, `` `null` ``), and numbers;
 * - comparisons `==` `!=` `<` `<=` `>` `>=`, `&&`, `||`, `!`, parentheses, pipes `|`;
 * - the functions `length`, `contains`, `keys`, `values`, `starts_with`, `ends_with`, `join`,
 *   `to_string`, `to_number`, `type` and `not_null`, as JMESPath defines them.
 *
 * Anything else (other functions, slices, multi-selects, `$bindings`, chainsaw's `~` iteration)
 * is an {@link ExpressionKeyError} naming what is supported, never a silent pass.
 */

import { isRecord } from '../engine/resource/plain-data.js';

/** A `(...)` key of an expected document that cosi cannot evaluate. */
export class ExpressionKeyError extends Error {
  override readonly name = 'ExpressionKeyError';
}

/** JMESPath's functions cosi evaluates, with how many arguments each takes (-1: one or more). */
const FUNCTIONS: Readonly<Record<string, number>> = {
  length: 1,
  contains: 2,
  keys: 1,
  values: 1,
  starts_with: 2,
  ends_with: 2,
  join: 2,
  to_string: 1,
  to_number: 1,
  type: 1,
  not_null: -1,
};

const SUPPORTED = `supported: fields (a.b, "quoted", @), [N], [*] and [?filter] projections, 'raw strings', \`JSON\` literals, numbers, == != < <= > >=, && || !, ( ), | and the functions ${Object.keys(FUNCTIONS).join(', ')}`;

/** Whether a key of an expected document is a chainsaw expression (`(...)`, or `~(...)`). */
export function isExpressionKey(key: string): boolean {
  // By position: `^~.*\(.*\)$` backtracks quadratically over a long key of `(`s.
  if (!key.endsWith(')')) return false;
  if (key.startsWith('(')) return key.length >= 2;
  const open = key.indexOf('(', 1);
  return key.startsWith('~') && open !== -1 && open < key.length - 1;
}

type Node =
  | { readonly kind: 'current' }
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'field'; readonly of: Node; readonly name: string }
  | { readonly kind: 'index'; readonly of: Node; readonly index: number }
  | { readonly kind: 'project'; readonly of: Node; readonly filter?: Node; readonly then: Node }
  | { readonly kind: 'compare'; readonly op: string; readonly left: Node; readonly right: Node }
  | { readonly kind: 'and' | 'or'; readonly left: Node; readonly right: Node }
  | { readonly kind: 'not'; readonly of: Node }
  | { readonly kind: 'pipe'; readonly left: Node; readonly right: Node }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Node[] };

const parsed = new Map<string, Node>();

/**
 * The value the key selects from `node`, as chainsaw computes it (`null` for what is not there).
 * Throws an {@link ExpressionKeyError} for a key outside the subset.
 */
export function evaluateExpressionKey(key: string, node: unknown): unknown {
  let ast = parsed.get(key);
  if (ast === undefined) {
    ast = parseKey(key);
    parsed.set(key, ast);
  }
  return evaluate(ast, node);
}

function parseKey(key: string): Node {
  if (!key.startsWith('(')) {
    throw new ExpressionKeyError(
      `the chainsaw expression key ${JSON.stringify(key)} is not supported: iteration (~) and named bindings (name: (...)) are not (${SUPPORTED})`,
    );
  }
  const parser = new Parser(key.slice(1, -1), key);
  const ast = parser.expression();
  parser.end();
  return ast;
}

function fail(key: string, at: number, what: string): never {
  throw new ExpressionKeyError(
    `the chainsaw expression key ${JSON.stringify(key)} is not supported: ${what} at column ${at + 2} (${SUPPORTED})`,
  );
}

class Parser {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly key: string,
  ) {}

  end(): void {
    this.space();
    if (this.at < this.text.length) fail(this.key, this.at, `unexpected ${this.rest()}`);
  }

  /** `a | b`: `b` evaluated over what `a` selects (a projection ends there). */
  expression(): Node {
    let left = this.or();
    while (this.eatPipe()) left = { kind: 'pipe', left, right: this.or() };
    return left;
  }

  private or(): Node {
    let left = this.and();
    while (this.eat('||')) left = { kind: 'or', left, right: this.and() };
    return left;
  }

  private eatPipe(): boolean {
    this.space();
    if (this.text[this.at] !== '|' || this.text[this.at + 1] === '|') return false;
    this.at++;
    return true;
  }

  private and(): Node {
    let left = this.not();
    while (this.eat('&&')) left = { kind: 'and', left, right: this.not() };
    return left;
  }

  private not(): Node {
    this.space();
    if (this.text[this.at] === '!' && this.text[this.at + 1] !== '=') {
      this.at++;
      return { kind: 'not', of: this.not() };
    }
    return this.comparison();
  }

  private comparison(): Node {
    const left = this.path();
    for (const op of ['==', '!=', '<=', '>=', '<', '>']) {
      if (this.eat(op)) return { kind: 'compare', op, left, right: this.path() };
    }
    return left;
  }

  /** A primary, then `.field`, `[N]`, `[*]` and `[?filter]`; a projection takes the rest. */
  private path(): Node {
    const start = this.primary();
    return this.suffixes(start);
  }

  private suffixes(of: Node): Node {
    let node = of;
    for (;;) {
      this.space();
      if (this.eat('.')) {
        node = { kind: 'field', of: node, name: this.name() };
      } else if (this.eat('[?')) {
        const filter = this.expression();
        this.expect(']');
        return { kind: 'project', of: node, filter, then: this.suffixes({ kind: 'current' }) };
      } else if (this.eat('[*]')) {
        return { kind: 'project', of: node, then: this.suffixes({ kind: 'current' }) };
      } else if (this.eat('[')) {
        const m = /^\s*(-?\d+)\s*\]/.exec(this.text.slice(this.at));
        if (m === null) fail(this.key, this.at, `an index other than [N] ${this.rest()}`);
        this.at += m[0].length;
        node = { kind: 'index', of: node, index: Number(m[1]) };
      } else {
        return node;
      }
    }
  }

  private primary(): Node {
    this.space();
    const c = this.text[this.at];
    if (c === '@') {
      this.at++;
      return { kind: 'current' };
    }
    // `[?filter]`, `[*]`, `[N]` of the node itself (`length([?name == 'x'])`).
    if (c === '[') return { kind: 'current' };
    if (c === '(') {
      this.at++;
      const inner = this.expression();
      this.expect(')');
      return inner;
    }
    if (c === "'") {
      const end = this.closing("'");
      const value = this.text.slice(this.at + 1, end).replaceAll("\\'", "'");
      this.at = end + 1;
      return { kind: 'literal', value };
    }
    if (c === '`') {
      const end = this.closing('`');
      const source = this.text.slice(this.at + 1, end).replaceAll('\\`', '`');
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch {
        fail(this.key, this.at, `a literal that is not JSON, \`${source}\``);
      }
      this.at = end + 1;
      return { kind: 'literal', value };
    }
    const number = /^-?\d+(?:\.\d+)?/.exec(this.text.slice(this.at));
    if (number !== null) {
      this.at += number[0].length;
      return { kind: 'literal', value: Number(number[0]) };
    }
    const name = this.name();
    this.space();
    if (this.text[this.at] === '(') {
      const start = this.at - name.length;
      const arity = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
      if (arity === undefined) fail(this.key, start, `the function ${name}()`);
      this.at++;
      const args: Node[] = [];
      if (!this.eat(')')) {
        do args.push(this.expression());
        while (this.eat(','));
        this.expect(')');
      }
      if (arity >= 0 ? args.length !== arity : args.length === 0) {
        fail(
          this.key,
          start,
          `${name}() with ${args.length} argument${args.length === 1 ? '' : 's'}`,
        );
      }
      return { kind: 'call', name, args };
    }
    return { kind: 'field', of: { kind: 'current' }, name };
  }

  private name(): string {
    this.space();
    if (this.text[this.at] === '"') {
      const end = this.closing('"');
      const name = JSON.parse(this.text.slice(this.at, end + 1)) as string;
      this.at = end + 1;
      return name;
    }
    if (this.text[this.at] === '$') {
      fail(this.key, this.at, `the binding ${/^\$\w*/.exec(this.text.slice(this.at))?.[0] ?? '$'}`);
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.at));
    if (m === null) fail(this.key, this.at, `expected a field name, found ${this.rest()}`);
    this.at += m[0].length;
    return m[0];
  }

  private closing(quote: string): number {
    for (let i = this.at + 1; i < this.text.length; i++) {
      if (this.text[i] === '\\') i++;
      else if (this.text[i] === quote) return i;
    }
    return fail(this.key, this.at, `an unclosed ${quote}`);
  }

  private expect(token: string): void {
    if (!this.eat(token)) fail(this.key, this.at, `expected ${token}, found ${this.rest()}`);
  }

  private eat(token: string): boolean {
    this.space();
    if (!this.text.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private rest(): string {
    return this.at >= this.text.length ? 'the end' : JSON.stringify(this.text.slice(this.at));
  }
}

function evaluate(node: Node, current: unknown): unknown {
  switch (node.kind) {
    case 'current':
      return current ?? null;
    case 'literal':
      return node.value;
    case 'field': {
      const of = evaluate(node.of, current);
      return isRecord(of) && Object.hasOwn(of, node.name) ? (of[node.name] ?? null) : null;
    }
    case 'index': {
      const of = evaluate(node.of, current);
      if (!Array.isArray(of)) return null;
      const i = node.index < 0 ? of.length + node.index : node.index;
      return (of[i] as unknown) ?? null;
    }
    case 'project': {
      const of = evaluate(node.of, current);
      if (!Array.isArray(of)) return null;
      const { filter } = node;
      const kept = filter === undefined ? of : of.filter((e) => truthy(evaluate(filter, e)));
      return kept.map((e) => evaluate(node.then, e)).filter((v) => v !== null);
    }
    case 'compare':
      return compare(node.op, evaluate(node.left, current), evaluate(node.right, current));
    case 'and': {
      const left = evaluate(node.left, current);
      return truthy(left) ? evaluate(node.right, current) : left;
    }
    case 'or': {
      const left = evaluate(node.left, current);
      return truthy(left) ? left : evaluate(node.right, current);
    }
    case 'not':
      return !truthy(evaluate(node.of, current));
    case 'pipe':
      return evaluate(node.right, evaluate(node.left, current));
    case 'call':
      return call(
        node.name,
        node.args.map((arg) => evaluate(arg, current)),
      );
  }
}

/**
 * A JMESPath function's value; an argument of a type the function does not take is `null` (where
 * JMESPath raises an error), which matches no expected value but `null`.
 */
function call(name: string, args: readonly unknown[]): unknown {
  const [a, b] = args;
  switch (name) {
    case 'length':
      // JMESPath counts a string's code points.
      if (typeof a === 'string') return Array.from(a).length;
      if (Array.isArray(a)) return a.length;
      return isRecord(a) ? Object.keys(a).length : null;
    case 'contains':
      if (typeof a === 'string') return typeof b === 'string' ? a.includes(b) : false;
      return Array.isArray(a) ? a.some((e) => deepEqual(e, b)) : null;
    case 'keys':
      return isRecord(a) ? Object.keys(a) : null;
    case 'values':
      return isRecord(a) ? Object.values(a) : null;
    case 'starts_with':
      return typeof a === 'string' && typeof b === 'string' ? a.startsWith(b) : null;
    case 'ends_with':
      return typeof a === 'string' && typeof b === 'string' ? a.endsWith(b) : null;
    case 'join':
      return typeof a === 'string' && Array.isArray(b) && b.every((e) => typeof e === 'string')
        ? b.join(a)
        : null;
    case 'to_string':
      return typeof a === 'string' ? a : JSON.stringify(a ?? null);
    case 'to_number': {
      if (typeof a === 'number') return a;
      if (typeof a !== 'string' || a.trim() === '') return null;
      const n = Number(a);
      return Number.isFinite(n) ? n : null;
    }
    case 'type':
      if (a === null || a === undefined) return 'null';
      if (Array.isArray(a)) return 'array';
      return isRecord(a) ? 'object' : typeof a;
    default:
      // not_null: its first argument that is not null.
      return args.find((v) => v !== null && v !== undefined) ?? null;
  }
}

function compare(op: string, left: unknown, right: unknown): unknown {
  if (op === '==') return deepEqual(left, right);
  if (op === '!=') return !deepEqual(left, right);
  if (typeof left !== 'number' || typeof right !== 'number') return null;
  if (op === '<') return left < right;
  if (op === '<=') return left <= right;
  if (op === '>') return left > right;
  return left >= right;
}

/** JMESPath's truth: false, null, and an empty string, list or object are false. */
function truthy(value: unknown): boolean {
  if (value === false || value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((e, i) => deepEqual(e, b[i]))
    );
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return Object.is(a ?? null, b ?? null);
}
