/**
 * Field names a CEL expression cannot write as they are, the way the API server escapes them:
 * a CEL reserved word (`namespace`, `in`) is written `__namespace__`, and in other names `__` is
 * `__underscores__`, `.` is `__dot__`, `-` is `__dash__` and `/` is `__slash__`
 * (`self.x__dash__prop` reads the field `x-prop`).
 */

/** CEL's reserved words, which a field name is escaped from (`__namespace__`). */
export const CEL_RESERVED_WORDS: ReadonlySet<string> = new Set([
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
  if (name.startsWith('__') && name.endsWith('__') && CEL_RESERVED_WORDS.has(name.slice(2, -2))) {
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

/** Whether `name` is one of CEL's reserved words (a field of that name is `__name__`). */
export function isReservedWord(name: string): boolean {
  return CEL_RESERVED_WORDS.has(name);
}

const ESCAPES: Readonly<Record<string, string>> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/**
 * A property's name as a rule writes it (the API server's `Escape`): a reserved word as
 * `__word__`, `__`, `.`, `-` and `/` spelt out; undefined for a name that cannot be written (it
 * starts with a digit, or has another character than letters, digits and those).
 */
export function escapeFieldName(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) return undefined;
  if (CEL_RESERVED_WORDS.has(name)) return `__${name}__`;
  if (!/^[A-Za-z0-9_./-]*$/.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (match) => ESCAPES[match] ?? match);
}
