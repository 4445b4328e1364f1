import { JSONPath } from 'jsonpath-plus';

/**
 * Evaluates a kubectl-style JSONPath template (`{.spec.cpus}`, `name={.metadata.id}`,
 * `{.aliases[:]}`) against plain data. Text outside braces is kept; several matches are joined
 * with a space; objects print as JSON. Script and filter expressions are refused: templates can
 * come from manifests, which are never trusted with code.
 *
 * @throws Error for a malformed template.
 */
export function evaluateTemplate(template: string, data: unknown): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, open);
    const close = template.indexOf('}', open);
    if (close < 0) throw new Error(`unclosed "{" in JSONPath template ${JSON.stringify(template)}`);
    out += evaluateExpression(template.slice(open + 1, close).trim(), data);
    i = close + 1;
  }
  return out;
}

function evaluateExpression(expression: string, data: unknown): string {
  if (expression === '' || expression === '.' || expression === '$') return format(data);
  const path = expression.startsWith('$')
    ? expression
    : `$${expression.startsWith('.') || expression.startsWith('[') ? '' : '.'}${expression}`;
  const results = JSONPath<unknown[]>({ path, json: data as object, wrap: true, eval: false });
  return results.map(format).join(' ');
}

function format(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value);
}
