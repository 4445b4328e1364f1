/**
 * The syntax of a print column's `jsonPath`, a kubectl-style template (`{.spec.cpus}`,
 * `{.aliases[:]}`, `{.status.conditions[?(@.type=="Ready")].status}`), checked when its definition
 * is read, so that a malformed one is reported at its line instead of printing `<error>` in every
 * row. The grammar is the one the table evaluates with (client-go's, `jsonpath-parser.ts`); on top
 * of it, braces must pair and a path must not end in `.` or hold empty brackets, which client-go
 * reads without a word and evaluates to nothing.
 */

import type { PrintColumn } from '../engine/resource/definition.js';
import { JsonPathSyntaxError, parseTemplate } from './kubernetes/jsonpath-parser.js';

/**
 * A printer column of a CRD or an RGD (`additionalPrinterColumns`: a path starting with `.`) as
 * cosi's table shows it: none for one on `.metadata` (the table prints the namespace and id, and
 * a resource's spec, which columns read, holds no metadata), nor for one whose path does not
 * parse, which `ignored` is told of with the sentence to say. A `priority` above 0 is kept: such a
 * column is shown only by `-o wide`, as kubectl shows it.
 */
export function shownPrinterColumn(
  name: string,
  path: string,
  ignored: (message: string) => void,
  priority?: unknown,
): PrintColumn | undefined {
  if (path === '.metadata' || path.startsWith('.metadata.') || path.startsWith('.metadata[')) {
    return undefined;
  }
  const jsonPath = `{${path}}`;
  const problem = printColumnPathError(jsonPath);
  if (problem === undefined) {
    return typeof priority === 'number' && priority > 0
      ? { name, jsonPath, priority }
      : { name, jsonPath };
  }
  ignored(
    `the column ${JSON.stringify(name)} is left out: its jsonPath ${JSON.stringify(path)} does not parse (${problem})`,
  );
  return undefined;
}

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
  if (expressions === 0) return 'it has no {expression}';
  try {
    parseTemplate(template);
  } catch (error) {
    if (error instanceof JsonPathSyntaxError) return error.message;
    throw error;
  }
  return undefined;
}

/** What the grammar lets through but no column means: `[]`, a path ending in `.`. */
function expressionError(expression: string): string | undefined {
  let quote: string | undefined;
  let last = '';
  let outside = '';
  for (const char of expression) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else {
      if (char === ']' && last === '[') return 'empty brackets';
      outside += char;
    }
    last = char;
  }
  if (quote !== undefined) return 'an unclosed quote';
  if (/\.\.\.|\.$/.test(outside) && expression !== '.') return 'a path that ends in "."';
  return undefined;
}
