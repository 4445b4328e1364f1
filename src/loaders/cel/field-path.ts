/**
 * A rule's `fieldPath`: where below the rule's node a violation is reported. It is read as the
 * API server's `ValidFieldPath` reads it, against the schema: `.name` (any text up to the next
 * `.`, `[` or `]`, so `.white space` and `.a.bbb.34` name the fields `white space` and `34`) and
 * `['key with.dots']` (a single-quoted string with `\'`, `\\`, `\n`... escapes) each name a
 * declared property, or a key of a map (`additionalProperties`). A list index (`.list[0]`), a
 * field the schema does not declare, or a step into a node with neither is refused.
 */

import { isSchemaNode, type SchemaNode } from '../schema-node.js';

/** How {@link resolveFieldPath} reads a path. */
export interface FieldPathOptions {
  /** Whether `['key']` may name a field (a rule's `fieldPath`), or only `.name` (a selectable field). */
  readonly arrayNotation?: boolean;
}

/**
 * The keys of a field path below `schema` and the schema of the field it names, or why the API
 * server would refuse it.
 */
export function resolveFieldPath(
  path: string,
  schema: SchemaNode,
  options: FieldPathOptions = {},
): { readonly keys: string[]; readonly node: SchemaNode } | { readonly error: string } {
  const tokens = tokenize(path);
  const keys: string[] = [];
  let node: SchemaNode | undefined = schema;
  let i = 0;
  const next = (): string | undefined => tokens[i++];
  while (i < tokens.length) {
    const token = next();
    let key: string;
    if (token === '[') {
      if (options.arrayNotation === false) return { error: 'array notation is not allowed' };
      const quoted = next();
      if (quoted === undefined) return { error: 'unexpected end of the path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) {
        return { error: `expected a single-quoted string after "[", not ${quoted}` };
      }
      const unescaped = unescapeSingleQuoted(quoted.slice(1, -1));
      if (unescaped === undefined) return { error: `an invalid escape in ${quoted}` };
      key = unescaped;
      const close = next();
      if (close === undefined) return { error: 'unexpected end of the path' };
      if (close !== ']') return { error: `expected "]", not ${close}` };
    } else if (token === '.') {
      const name = next();
      if (name === undefined) return { error: 'unexpected end of the path' };
      key = name;
    } else {
      return { error: `expected "." or "[", not ${String(token)}` };
    }
    const child: SchemaNode | undefined = stepInto(node, key);
    if (child === undefined)
      return { error: `${JSON.stringify(key)} is not a field of the schema` };
    keys.push(key);
    node = child;
  }
  return keys.length === 0 ? { error: 'the path is empty' } : { keys, node };
}

/** The schema of a declared property, or of a map's values; undefined when there is none. */
function stepInto(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (node === undefined) return undefined;
  const { properties, additionalProperties } = node;
  if (isSchemaNode(properties) && Object.keys(properties).length > 0) {
    const property: unknown = Object.hasOwn(properties, key) ? properties[key] : undefined;
    return isSchemaNode(property) ? property : undefined;
  }
  if (isSchemaNode(additionalProperties)) return additionalProperties;
  // `additionalProperties: true`: any key, with nothing known below it.
  return additionalProperties === true ? {} : undefined;
}

/**
 * The path split as the API server splits it: `.`, `[` and `]` alone, a single-quoted string
 * whole (delimiters inside it kept), any other text up to the next delimiter.
 */
function tokenize(path: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < path.length) {
    const char = path[i];
    if (char === '.' || char === '[' || char === ']') {
      tokens.push(char);
      i++;
      continue;
    }
    let end = i + 1;
    if (char === "'") {
      while (end < path.length && !(path[end] === "'" && path[end - 1] !== '\\')) end++;
      end = Math.min(end + 1, path.length);
    } else {
      while (end < path.length && !'.[]'.includes(path[end] ?? '')) end++;
    }
    tokens.push(path.slice(i, end));
    i = end;
  }
  return tokens;
}

const ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

function unescapeSingleQuoted(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char !== '\\') {
      out += char;
      continue;
    }
    const replacement = ESCAPES[text[i + 1] ?? ''];
    if (replacement === undefined) return undefined;
    out += replacement;
    i++;
  }
  return out;
}
