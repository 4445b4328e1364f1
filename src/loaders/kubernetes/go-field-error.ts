/**
 * The API server's field errors (apimachinery `util/validation/field`), worded as it words them
 * after the field path: `Invalid value: 70000: must be between 1 and 65535, inclusive`,
 * `Required value`, `Duplicate value: "web"`. A value prints as Go prints it: a string quoted, a
 * number bare, a map of strings as `map[string]string{"app":"web"}` (keys sorted, as Go's fmt
 * sorts them); other values as JSON.
 */

/** A field path as Go's `field.Path` prints it: `spec.containers[0].env[1]`. */
export function goFieldPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text;
}

/** How Go's `%v` / `%q` / `%#v` print a value in a field error. */
export function goValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined || value === null) return 'null';
  if (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  ) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${goQuote(key)}:${goQuote((value as Record<string, string>)[key] as string)}`);
    return `map[string]string{${entries.join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** What Go's `unicode.IsPrint` takes: letters, marks, numbers, punctuation, symbols, ASCII space. */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
/** Printable ASCII but `"` and `\`: written as it is. */
const PLAIN_ASCII = /^[ !#-[\]-~]*$/;
const GO_SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/**
 * A string as Go's `%q` (`strconv.Quote`) writes it: printable characters as they are, the
 * others escaped (`\t`, `\x00`, `\u0085`, `\U0001f600` for a non-printable one past U+FFFF).
 */
export function goQuote(text: string): string {
  if (PLAIN_ASCII.test(text)) return `"${text}"`;
  let out = '"';
  for (const char of text) {
    const short = GO_SHORT_ESCAPES[char];
    if (short !== undefined) out += short;
    else if (GO_PRINTABLE.test(char)) out += char;
    else {
      const code = char.codePointAt(0) as number;
      if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
      else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
      else out += `\\U${code.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}

/** `field.Invalid`. */
export function invalidValue(value: unknown, detail: string): string {
  return `Invalid value: ${goValue(value)}: ${detail}`;
}

/** `field.Invalid` of a list of strings, which Go prints as `[]string{"a", "b"}`. */
export function invalidStringList(value: readonly string[], detail: string): string {
  return `Invalid value: []string{${value.map((v) => JSON.stringify(v)).join(', ')}}: ${detail}`;
}

/**
 * `field.Invalid` of a struct value (a label selector): the API server prints it as JSON, `{}`
 * when empty (where an empty map of strings is `map[string]string{}`).
 */
export function invalidStructValue(value: unknown, detail: string): string {
  return `Invalid value: ${JSON.stringify(value)}: ${detail}`;
}

/** `field.Required`. */
export function requiredValue(detail = ''): string {
  return detail === '' ? 'Required value' : `Required value: ${detail}`;
}

/** `field.Duplicate`. */
export function duplicateValue(value: unknown): string {
  return `Duplicate value: ${goValue(value)}`;
}

/** `field.Duplicate` of a struct value, which Go prints with its type (shown as JSON here). */
export function duplicateStructValue(value: unknown): string {
  return `Duplicate value: ${JSON.stringify(value)}`;
}

/** `field.Forbidden`. */
export function forbiddenValue(detail: string): string {
  return `Forbidden: ${detail}`;
}

/** `field.NotFound`. */
export function notFoundValue(value: unknown): string {
  return `Not found: ${goValue(value)}`;
}

/** `field.NotSupported`. */
export function unsupportedValue(value: unknown, supported: readonly string[]): string {
  return `Unsupported value: ${goValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`;
}

/** `field.TooMany`. */
export function tooManyValue(actual: number, max: number): string {
  return `Too many: ${actual}: must have at most ${max} items`;
}
