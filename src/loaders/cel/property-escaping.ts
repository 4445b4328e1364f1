/**
 * Field names a CEL expression cannot write as they are, the way the API server escapes them:
 * a CEL reserved word (`namespace`, `in`) is written `__namespace__`, and in other names `__` is
 * `__underscores__`, `.` is `__dot__`, `-` is `__dash__` and `/` is `__slash__`
 * (`self.x__dash__prop` reads the field `x-prop`).
 */

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const TOKENS: readonly (readonly [string, string])[] = [
  ['__underscores__', '__'],
  ['__dot__', '.'],
  ['__dash__', '-'],
  ['__slash__', '/'],
];

/** The field name an escaped name stands for (the name itself when nothing is escaped). */
export function unescapeFieldName(name: string): string {
  if (name.startsWith('__') && name.endsWith('__') && RESERVED.has(name.slice(2, -2))) {
    return name.slice(2, -2);
  }
  let out = '';
  let i = 0;
  while (i < name.length) {
    const token = TOKENS.find(([escaped]) => name.startsWith(escaped, i));
    if (token === undefined) {
      out += name.charAt(i);
      i++;
    } else {
      out += token[1];
      i += token[0].length;
    }
  }
  return out;
}
