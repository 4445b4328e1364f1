/**
 * The places of an RGD where each string is one standalone `${...}` expression: `includeWhen`,
 * `readyWhen`, `status.conditions` (lists of conditions) and a forEach iterator's list.
 */

import type { GraphExpression } from '../../controllers/resource-graph.js';
import { isPlainObject } from '../manifest-document.js';
import { compileStrings } from './compile-expressions.js';
import { fail, type GraphCompilation } from './graph-compilation.js';

/**
 * A list of conditions (`includeWhen`, `readyWhen`, `status.conditions`) compiled: `[]` when
 * there is none, `undefined` when it or one of its entries is refused.
 */
export function compileConditions(
  c: GraphCompilation,
  conditions: unknown,
  at: (string | number)[],
  allowed: ReadonlySet<string>,
  into: Set<string>,
  context: string,
): GraphExpression[] | undefined {
  if (conditions === undefined) return [];
  if (!Array.isArray(conditions) || conditions.some((entry) => typeof entry !== 'string')) {
    fail(c, 'rgd-bad-resource', at, 'conditions must be a list of "${...}" strings');
    return undefined;
  }
  return standaloneExpressions(c, conditions, at, allowed, into, context);
}

/** The strings below `at` (conditions, a forEach iterator's list), each one standalone `${}`. */
export function standaloneExpressions(
  c: GraphCompilation,
  root: unknown,
  at: (string | number)[],
  allowed: ReadonlySet<string>,
  into: Set<string>,
  context: string,
): GraphExpression[] | undefined {
  const what = context === 'forEach' ? 'a forEach list' : 'a condition';
  for (const { path, text } of stringsOf(root)) {
    if (text.includes('${')) continue;
    // kro unwraps each entry (parser.UnwrapExpressions): one without ${} is refused, not true.
    fail(
      c,
      'rgd-bad-expression',
      [...at, ...path],
      `${what} must be one standalone \${...} expression (${JSON.stringify(text)} has none: write "\${${text}}")`,
    );
    return undefined;
  }
  const fields = compileStrings(c, root, at, allowed, into, context);
  if (fields === undefined) return undefined;
  const out: GraphExpression[] = [];
  for (const field of fields) {
    const expression = field.parts[0];
    if (!field.standalone || expression === undefined || typeof expression === 'string') {
      fail(
        c,
        'rgd-bad-expression',
        [...at, ...field.path],
        `${what} must be one standalone \${...} expression`,
      );
      return undefined;
    }
    out.push(expression);
  }
  return out;
}

/** The strings directly under a list or mapping (conditions, forEach entries), with their paths. */
function stringsOf(root: unknown): { path: (string | number)[]; text: string }[] {
  const entries: [string | number, unknown][] = Array.isArray(root)
    ? [...root.entries()]
    : isPlainObject(root)
      ? Object.entries(root)
      : [];
  return entries.flatMap(([key, text]) =>
    typeof text === 'string' ? [{ path: [key], text }] : [],
  );
}
