/**
 * The syntax of a print column's `jsonPath`, a kubectl-style template (`{.spec.cpus}`,
 * `{.aliases[:]}`), checked when its definition is read: jsonpath-plus reads a malformed one
 * without a word (`{.a[}`) and the table would show nothing, or `<error>`, for every resource.
 */

/** What is wrong with a template, or `undefined` when it is well formed. */
export function printColumnPathError(template: string): string | undefined {
  let i = 0;
  let expressions = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const stray = template.indexOf('}', i);
    if (stray !== -1 && (open === -1 || stray < open))
      return `a "}" at ${stray + 1} closes nothing`;
    if (open === -1) break;
    const close = template.indexOf('}', open + 1);
    if (close === -1) return `the "{" at ${open + 1} is never closed`;
    const inner = template.indexOf('{', open + 1);
    if (inner !== -1 && inner < close) return `a "{" at ${inner + 1} inside an expression`;
    const problem = expressionError(template.slice(open + 1, close).trim());
    if (problem !== undefined) return `${problem} in {${template.slice(open + 1, close)}}`;
    expressions++;
    i = close + 1;
  }
  return expressions === 0 ? 'it has no {expression}' : undefined;
}

function expressionError(expression: string): string | undefined {
  if (/[()]/.test(expression)) return 'filters and scripts are not allowed';
  let depth = 0;
  let quote: string | undefined;
  let last = '';
  for (const char of expression) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '[') {
      if (depth > 0) return 'a "[" inside brackets';
      depth++;
    } else if (char === ']') {
      if (depth === 0) return 'a "]" that closes nothing';
      if (last === '[') return 'empty brackets';
      depth--;
    }
    last = char;
  }
  if (quote !== undefined) return 'an unclosed quote';
  if (depth > 0) return 'an unclosed "["';
  if (/\.\.\.|\.$/.test(expression) && expression !== '.') return 'a path that ends in "."';
  return undefined;
}
