/**
 * The parser of Kubernetes' JSONPath template grammar, as kubectl and talosctl take it
 * (`-o jsonpath=...`, print columns): text with `{...}` actions, `{range ...}...{end}` blocks.
 * It follows k8s.io/client-go/util/jsonpath (fields, `[*]`, slices, unions, `..`, `[?()]`
 * filters, quoted literals) and turns into syntax errors what client-go only notices while
 * executing (an unknown identifier or filter operator, an `{end}` without `{range}`), so a bad
 * template fails before anything runs. The grammar has no code: nothing here is ever executed.
 */

/** One step of a path inside an action, applied to every value the previous step produced. */
export type JsonPathStep =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'recursive' }
  | {
      readonly kind: 'slice';
      readonly start: SliceBound;
      readonly end: SliceBound;
      readonly step: SliceBound;
    }
  | { readonly kind: 'union'; readonly branches: readonly JsonPathStep[][] }
  | {
      readonly kind: 'filter';
      readonly left: readonly JsonPathStep[];
      readonly operator: FilterOperator | 'exists';
      readonly right: readonly JsonPathStep[];
    }
  | { readonly kind: 'literal'; readonly value: string | number | boolean };

/** A slice bound as written: absent (`[:2]`), or a number; `derived` marks `[i]` (one index). */
export interface SliceBound {
  readonly value: number | undefined;
  readonly derived?: boolean;
}

export type FilterOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A template: text, actions, and range blocks with their bodies. */
export type JsonPathSegment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'action'; readonly path: readonly JsonPathStep[] }
  | {
      readonly kind: 'range';
      readonly path: readonly JsonPathStep[];
      readonly body: readonly JsonPathSegment[];
    };

/** A parsed template, ready to run any number of times. */
export interface JsonPathTemplate {
  readonly source: string;
  readonly segments: readonly JsonPathSegment[];
}

/** A template that does not follow the grammar; the message says what is wrong. */
export class JsonPathSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathSyntaxError';
  }
}

const FILTER_OPERATORS: readonly string[] = ['==', '!=', '<', '<=', '>', '>='];
const DICT_KEY = /^'([^']*)'$/;
const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;

/**
 * Parses a JSONPath template.
 *
 * @throws JsonPathSyntaxError for a malformed template.
 */
export function parseTemplate(source: string): JsonPathTemplate {
  const root: JsonPathSegment[] = [];
  // The open range blocks, innermost last: `{end}` closes the last one.
  const open: {
    path: readonly JsonPathStep[];
    body: JsonPathSegment[];
    parent: JsonPathSegment[];
  }[] = [];
  let current = root;
  let pos = 0;
  while (pos < source.length) {
    const brace = source.indexOf('{', pos);
    if (brace < 0) {
      current.push({ kind: 'text', text: source.slice(pos) });
      break;
    }
    if (brace > pos) current.push({ kind: 'text', text: source.slice(pos, brace) });
    const action = new ActionParser(source, brace + 1).parse();
    pos = action.next;
    const [first, ...rest] = action.steps;
    if (first?.kind === 'identifier' && first.name === 'range') {
      const path = rest.map(pathStep);
      const block = { path, body: [] as JsonPathSegment[], parent: current };
      open.push(block);
      current = block.body;
    } else if (first?.kind === 'identifier' && first.name === 'end') {
      if (rest.length > 0) throw new JsonPathSyntaxError('{end} takes nothing after it');
      const block = open.pop();
      if (!block) throw new JsonPathSyntaxError('not in range, nothing to end');
      block.parent.push({ kind: 'range', path: block.path, body: block.body });
      current = block.parent;
    } else {
      current.push({ kind: 'action', path: action.steps.map(pathStep) });
    }
  }
  // client-go runs an unclosed range to the end and then the rest again on the outer object;
  // that is never what was meant, so it is an error here.
  if (open.length > 0) throw new JsonPathSyntaxError('{range} without {end}');
  return { source, segments: root };
}

/** `range` and `end` are only keywords at the start of an action; any other word is an error. */
function pathStep(step: RawStep): JsonPathStep {
  if (step.kind === 'identifier') {
    throw new JsonPathSyntaxError(
      step.name === 'range' || step.name === 'end'
        ? `${step.name} must open its own action, as {${step.name}${step.name === 'range' ? ' .items[*]' : ''}}`
        : `unrecognized identifier ${step.name}`,
    );
  }
  return step;
}

type RawStep = JsonPathStep | { readonly kind: 'identifier'; readonly name: string };

/** Parses one action, from after its `{` through its `}`. */
class ActionParser {
  private readonly steps: RawStep[] = [];

  constructor(
    private readonly input: string,
    private pos: number,
  ) {}

  parse(): { steps: RawStep[]; next: number } {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) return { steps: this.steps, next: this.pos + 1 };
      if (rest.startsWith('[?(')) this.filter();
      else if (rest.startsWith('..')) this.recursive();
      else this.single();
    }
  }

  private single(): void {
    const c = this.input[this.pos];
    if (c === undefined || c === '\n' || c === '\r')
      throw new JsonPathSyntaxError('unclosed action');
    if (c === ' ' || c === '@' || c === '$') {
      // The current object: nothing to do.
      this.pos++;
    } else if (c === '[') this.array();
    else if (c === '"' || c === "'") this.quoted(c);
    else if (c === '.') {
      this.pos++;
      this.field();
    } else if (c === '+' || c === '-' || isDigit(c)) this.number();
    else if (isAlphaNumeric(c)) this.identifier();
    else throw new JsonPathSyntaxError(`unrecognized character in action: ${describeChar(c)}`);
  }

  private recursive(): void {
    if (this.steps.at(-1)?.kind === 'recursive') {
      throw new JsonPathSyntaxError('invalid multiple recursive descent');
    }
    this.pos += 2;
    this.steps.push({ kind: 'recursive' });
    const c = this.input[this.pos];
    if (c !== undefined && isAlphaNumeric(c)) this.field();
  }

  /** A field name runs to the next unescaped terminator; `\.` keeps a dot in a key. */
  private field(): void {
    let name = '';
    for (;;) {
      const c = this.input[this.pos];
      if (c === '\\') {
        const escaped = this.input[this.pos + 1];
        if (escaped !== undefined) name += escaped;
        this.pos += 2;
        continue;
      }
      if (c === undefined || isTerminator(c)) break;
      name += c;
      this.pos++;
    }
    this.steps.push(name === '*' ? { kind: 'wildcard' } : { kind: 'field', name });
  }

  private identifier(): void {
    const start = this.pos;
    while (this.pos < this.input.length && !isTerminator(this.input[this.pos] ?? '')) this.pos++;
    const word = this.input.slice(start, this.pos);
    if (word === 'true' || word === 'false')
      this.steps.push({ kind: 'literal', value: word === 'true' });
    else this.steps.push({ kind: 'identifier', name: word });
  }

  private number(): void {
    const start = this.pos;
    if (this.input[this.pos] === '+' || this.input[this.pos] === '-') this.pos++;
    while (this.input[this.pos] === '.' || isDigit(this.input[this.pos] ?? '')) this.pos++;
    const text = this.input.slice(start, this.pos);
    if (!isNumberText(text)) {
      throw new JsonPathSyntaxError(`cannot parse number ${text}`);
    }
    this.steps.push({ kind: 'literal', value: Number(text) });
  }

  private quoted(quote: string): void {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const c = this.input[this.pos];
      if (c === undefined || c === '\n')
        throw new JsonPathSyntaxError('unterminated quoted string');
      this.pos++;
      if (c === '\\') this.pos++;
      else if (c === quote) break;
    }
    this.steps.push({ kind: 'literal', value: unquote(this.input.slice(start, this.pos)) });
  }

  /** `[...]`: an index, a slice, `*`, a union of those, or `'key'` (a path: `['a.b']` is `.a.b`). */
  private array(): void {
    const close = this.input.indexOf(']', this.pos);
    const newline = this.input.indexOf('\n', this.pos);
    if (close < 0 || (newline >= 0 && newline < close)) {
      throw new JsonPathSyntaxError('unterminated array');
    }
    let text = this.input.slice(this.pos + 1, close);
    this.pos = close + 1;
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      this.steps.push({
        kind: 'union',
        branches: parts.map((part) => parseSubPath(`[${part.trim()}]`)),
      });
      return;
    }
    const key = DICT_KEY.exec(text);
    if (key) {
      this.steps.push(...parseSubPath(`.${key[1] ?? ''}`));
      return;
    }
    const slice = SLICE.exec(text);
    if (!slice) throw new JsonPathSyntaxError(`invalid array index ${text}`);
    const start = sliceBound(slice[1] ?? '');
    const endText = slice[2];
    const end: SliceBound =
      endText === undefined
        ? // `[i]` is the slice `[i:i+1]`; `[-1]` must still reach the end of the array.
          { value: (start.value ?? 0) + 1, derived: true }
        : sliceBound(endText.slice(1));
    this.steps.push({ kind: 'slice', start, end, step: sliceBound((slice[3] ?? '').slice(1)) });
  }

  /** `[?(left op right)]` or `[?(path)]` (the element has the path). */
  private filter(): void {
    this.pos += 3;
    const start = this.pos;
    let quote: string | undefined;
    let inQuote = false;
    for (;;) {
      const c = this.input[this.pos];
      if (c === undefined || c === '\n') throw new JsonPathSyntaxError('unterminated filter');
      this.pos++;
      if (inQuote) {
        if (c === '\\') this.pos++;
        else if (c === quote) inQuote = false;
      } else if (c === '"' || c === "'") {
        quote = c;
        inQuote = true;
      } else if (c === ')') break;
    }
    if (this.input[this.pos] !== ']') throw new JsonPathSyntaxError('unclosed array expect ]');
    const text = this.input.slice(start, this.pos - 1);
    this.pos++;
    const comparison = splitComparison(text);
    if (comparison === undefined) {
      this.steps.push({ kind: 'filter', left: parseSubPath(text), operator: 'exists', right: [] });
      return;
    }
    const { left, operator, right } = comparison;
    if (!FILTER_OPERATORS.includes(operator)) {
      throw new JsonPathSyntaxError(`unrecognized filter operator ${operator}`);
    }
    this.steps.push({
      kind: 'filter',
      left: parseSubPath(left),
      operator: operator as FilterOperator,
      right: parseSubPath(right),
    });
  }
}

/**
 * Whether the text the number scanner took (a sign, then digits and points) is a number:
 * client-go's `^[+-]?(\d+\.?\d*|\.\d+)$`, read once (as a backtracking regular expression, a
 * long run of digits that fails to match took time quadratic in its length).
 */
function isNumberText(text: string): boolean {
  const body = text.startsWith('+') || text.startsWith('-') ? text.slice(1) : text;
  const point = body.indexOf('.');
  return (point === -1 || body.indexOf('.', point + 1) === -1) && /[0-9]/.test(body);
}

const OPERATOR_CHARACTERS = '!<>=';

/**
 * A filter's `left op right`, as client-go's `^([^!<>=]+)([!<>=]+)(.+?)$` splits it (Go's `.`
 * takes any character but a newline, which a filter cannot hold): the left side up to the first
 * operator character, the operator its whole run (all but its last character when nothing
 * follows it), the rest the right side; `undefined` for an existence filter. Read once, where
 * the backtracking expression took time quadratic in the length of a run of operators.
 */
function splitComparison(
  text: string,
): { left: string; operator: string; right: string } | undefined {
  let from = 0;
  while (from < text.length && !OPERATOR_CHARACTERS.includes(text.charAt(from))) from++;
  if (from === 0 || from === text.length) return undefined;
  let to = from;
  while (to < text.length && OPERATOR_CHARACTERS.includes(text.charAt(to))) to++;
  if (to === text.length) {
    if (to - from < 2) return undefined;
    to--;
  }
  return { left: text.slice(0, from), operator: text.slice(from, to), right: text.slice(to) };
}

/** Parses the inside of one action (a union branch, a filter side) as a path. */
function parseSubPath(text: string): JsonPathStep[] {
  const { steps, next } = new ActionParser(`${text}}`, 0).parse();
  if (next !== text.length + 1) throw new JsonPathSyntaxError(`unexpected "}" in ${text}`);
  return steps.map(pathStep);
}

function sliceBound(text: string): SliceBound {
  if (text === '') return { value: undefined };
  if (!/^-?\d+$/.test(text)) throw new JsonPathSyntaxError(`array index ${text} is not a number`);
  return { value: Number(text) };
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  '"': '"',
  "'": "'",
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** A quoted literal's text, with Go's escapes (`\n`, `\t`, `\"`, `\u00e9`...). */
function unquote(quoted: string): string {
  const body = quoted.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[i + 1] ?? '';
    const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hex > 0) {
      const digits = body.slice(i + 2, i + 2 + hex);
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) {
        throw new JsonPathSyntaxError(`invalid escape in ${quoted}`);
      }
      out += String.fromCodePoint(parseInt(digits, 16));
      i += 1 + hex;
      continue;
    }
    const escaped = ESCAPES[e];
    if (escaped === undefined) throw new JsonPathSyntaxError(`invalid escape \\${e} in ${quoted}`);
    out += escaped;
    i++;
  }
  return out;
}

function isTerminator(c: string): boolean {
  return ' \t\r\n.,[]$@{}'.includes(c);
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isAlphaNumeric(c: string): boolean {
  return c === '_' || /^[\p{L}\p{Nd}]$/u.test(c);
}

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} '${c}'`;
}
