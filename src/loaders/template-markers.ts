/**
 * Template syntax in a manifest file: Helm's and Go's `{{ ... }}` (`{{- if .Values.x }}` lines),
 * Jinja's and Liquid's `{% ... %}` (`{% raw %}` in a docs site's snippets). A template is no
 * manifest: a document that holds such expressions is one `template-expression` finding, not
 * the dozens of YAML errors and field findings its lines would make one by one.
 */

/** The start of a template expression. */
const MARK = /\{\{|\{%/g;

/** The expression from its start to its end on one line (`{{- .Release.Name }}`), at most this long. */
const EXPRESSION = /^(?:\{\{[^\n]{0,200}?\}\}|\{%[^\n]{0,200}?%\})/;

/** The first template expression of a document, and how many more it holds. */
export interface TemplateMarker {
  /** Where the first expression starts in the text. */
  readonly offset: number;
  /** The first expression as written (its line from it, when it does not close there). */
  readonly written: string;
  /** How many other expressions the document holds. */
  readonly more: number;
}

/**
 * The template expressions of a document (`text` from `start` to `end`) that did not parse as
 * YAML, when they are what broke it: an error on a line holding one outside a quoted string, or
 * on the line after one. A document whose errors are elsewhere is not called a template for a
 * `{{` in one of its strings (Argo Workflows' `"{{inputs.parameters.x}}"` are data, and a quoted
 * one cannot break the YAML).
 */
export function templateInBrokenDocument(
  text: string,
  start: number,
  end: number,
  errorOffsets: readonly number[],
): TemplateMarker | undefined {
  const near = errorOffsets.some((offset) => {
    const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    const previousStart = lineStart === 0 ? 0 : text.lastIndexOf('\n', lineStart - 2) + 1;
    const lineEnd = text.indexOf('\n', offset);
    return hasMark(text.slice(Math.max(start, previousStart), lineEnd === -1 ? end : lineEnd));
  });
  if (!near) return undefined;
  return templateMarkers(text, start, end);
}

/** The template expressions of a document, from `start` to `end` of `text`; none: undefined. */
export function templateMarkers(
  text: string,
  start: number,
  end: number,
): TemplateMarker | undefined {
  const body = text.slice(start, end);
  let first = -1;
  let count = 0;
  for (const match of body.matchAll(MARK)) {
    if (first === -1) first = match.index;
    count++;
  }
  if (first === -1) return undefined;
  const from = body.slice(first);
  const closed = EXPRESSION.exec(from);
  const lineEnd = from.indexOf('\n');
  const written = closed?.[0] ?? (lineEnd === -1 ? from : from.slice(0, lineEnd)).trimEnd();
  return { offset: start + first, written, more: count - 1 };
}

/**
 * The line with each quoted string that closes on it (double-quoted with escapes, or
 * single-quoted with `''`) replaced by `q`, leftmost first, as the pattern
 * `"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'` replaces them. Scanned once: a quote that does not close
 * makes every quote of its kind inside what it read fail too (they are escaped quotes, read from
 * the same place on), so they are not read again, as the pattern would from each of them
 * (quadratic in a line of `\"`s).
 */
function withoutQuoted(line: string): string {
  let out = '';
  let copied = 0;
  /** Where the last failed read of each kind stopped: a quote of that kind before it fails. */
  const failsBefore = { '"': -1, "'": -1 };
  for (let i = 0; i < line.length; i++) {
    const quote = line[i];
    if ((quote !== '"' && quote !== "'") || i < failsBefore[quote]) continue;
    const read = quote === '"' ? doubleQuoted(line, i) : singleQuoted(line, i);
    if ('stop' in read) {
      failsBefore[quote] = read.stop;
      continue;
    }
    out += `${line.slice(copied, i)}q`;
    copied = read.end + 1;
    i = read.end;
  }
  return out + line.slice(copied);
}

/** Where the double-quoted string opened at `start` closes, or where reading it stopped. */
function doubleQuoted(line: string, start: number): { end: number } | { stop: number } {
  let at = start + 1;
  while (at < line.length) {
    const c = line[at];
    if (c === '"') return { end: at };
    if (c === '\n') return { stop: at };
    if (c === '\\') {
      // `\\.`: any character but a line terminator after the backslash.
      if (at + 1 >= line.length || LINE_TERMINATOR.test(line[at + 1] as string)) {
        return { stop: at };
      }
      at += 2;
    } else at++;
  }
  return { stop: at };
}

/**
 * Where the single-quoted string opened at `start` closes: after the longest run of other
 * characters and `''`, at a lone `'`, or else at the first quote of the run's last `''`.
 */
function singleQuoted(line: string, start: number): { end: number } | { stop: number } {
  let at = start + 1;
  let lastPair = -1;
  while (at < line.length && line[at] !== '\n') {
    if (line[at] === "'") {
      if (line[at + 1] !== "'") return { end: at };
      lastPair = at;
      at += 2;
    } else at++;
  }
  return lastPair === -1 ? { stop: at } : { end: lastPair };
}

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** A quote that starts a scalar (after a space, the line's start or a flow indicator). */
const OPENING_QUOTE = /(?:^|[\s[{,])["']/;

/**
 * Whether a line holds the start of an expression outside its quoted strings. A quote that opens
 * a scalar and does not close on the line quotes the rest of it (a quoted value over several
 * lines: `text: '{{ template "slack.text" . }}` and its next line).
 */
function hasMark(line: string): boolean {
  const closed = withoutQuoted(line);
  const open = OPENING_QUOTE.exec(closed);
  const unquoted = open === null ? closed : closed.slice(0, open.index);
  return unquoted.includes('{{') || unquoted.includes('{%');
}

/** The finding's message for a document holding template expressions. */
export function templateExpressionMessage(written: string, more: number): string {
  const others = more === 0 ? '' : `, and ${more} more`;
  return `this document holds template expressions (${written}${others}): it is a template, not a manifest; check what it renders (helm template ..., flux build ... | cosi check -f -), or leave it out with --ignore; braces that are data (Argo's {{inputs.parameters.x}}) must be quoted: unquoted, {{ starts a YAML flow mapping, which kubectl refuses too`;
}
