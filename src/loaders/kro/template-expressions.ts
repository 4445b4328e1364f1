/**
 * `${...}` in kro templates: where each expression is in a string, and whether the string is one
 * standalone expression (the field takes the expression's value, of its type) or a string
 * template (`"a-${e}-b"`, whose expressions must give strings). An expression ends at the `}`
 * that closes its `${`, skipping braces inside CEL string literals, so `${"${x}"}` is the
 * expression `"${x}"`: the way to write a literal `${`.
 */

import type { DocumentReport } from '../document-report.js';
import type { SourceLocation } from '../finding.js';

/** One `${...}` in a string. */
export interface ExpressionSpan {
  /** The CEL text between `${` and `}`. */
  readonly source: string;
  /** Offset of `$` in the string. */
  readonly start: number;
  /** Offset after the closing `}`. */
  readonly end: number;
}

/** A string's literal and expression parts. */
export interface ScannedString {
  readonly parts: readonly (string | ExpressionSpan)[];
  readonly standalone: boolean;
}

/** The expressions of a string (undefined when it has none), or why it does not scan. */
export function scanTemplateString(text: string): ScannedString | { error: string } | undefined {
  if (!text.includes('${')) return undefined;
  const parts: (string | ExpressionSpan)[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '$' && text[i + 1] === '{') {
      const end = closingBrace(text, i + 2);
      if (end === undefined) return { error: `the expression at offset ${i} has no closing }` };
      if (typeof end !== 'number') {
        // kro's parser (cel.go ErrNestedExpression): `${f(${x})}` is refused, `${f("${x}")}` not.
        return {
          error: `the expression at offset ${i} holds another \${...} at offset ${end.nested}: nested expressions are not allowed unless inside string literals`,
        };
      }
      if (literal !== '') parts.push(literal);
      literal = '';
      const source = text.slice(i + 2, end).trim();
      if (source === '') return { error: `the expression at offset ${i} is empty` };
      parts.push({ source, start: i, end: end + 1 });
      i = end + 1;
      continue;
    }
    literal += text[i] ?? '';
    i++;
  }
  if (literal !== '') parts.push(literal);
  return { parts, standalone: parts.length === 1 && typeof parts[0] !== 'string' };
}

/**
 * The offset of the `}` closing an expression that starts at `from`, outside CEL strings; or
 * where a `${` opens inside it (outside CEL strings).
 */
function closingBrace(text: string, from: number): number | { nested: number } | undefined {
  let depth = 1;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (text.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = undefined;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += quote.length - 1;
    } else if (c === '$' && text[i + 1] === '{') return { nested: i };
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return undefined;
}

/** Every string of a value holding `${`, with its path. */
export function* stringsWithExpressions(
  value: unknown,
  path: (string | number)[] = [],
): Generator<{ path: (string | number)[]; text: string }> {
  if (typeof value === 'string') {
    if (value.includes('${')) yield { path, text: value };
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* stringsWithExpressions(item, [...path, i]);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      yield* stringsWithExpressions(item, [...path, key]);
    }
  }
}

/**
 * Where an expression of the string at `pointer` is in the source: its `$`, also inside a
 * quoted or block string (the same `${` counted in the source as in the string's value).
 */
export function expressionLocation(
  report: DocumentReport,
  pointer: string,
  text: string,
  span: ExpressionSpan,
): SourceLocation {
  let before = 0;
  for (let at = text.indexOf('${'); at !== -1 && at < span.start; at = text.indexOf('${', at + 2)) {
    before++;
  }
  return report.textLocation(pointer, '${', before);
}
