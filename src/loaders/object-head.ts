/**
 * What a YAML file's first document says it is, when it says so as a Kubernetes object does: a
 * top-level string `apiVersion` and `kind`. Read without parsing the file, from a bounded prefix,
 * so that the walk can look into every file it would otherwise set aside by its name alone (a
 * `values.yaml`, a `kustomization.yaml`) at the cost of a line scan.
 */
import { parse } from 'yaml';
import { isRecord } from '../engine/resource/plain-data.js';

/** Whether parsed data has a string `apiVersion` and `kind`, as a Kubernetes object has. */
export function isKubernetesObjectValue(value: unknown): boolean {
  return isRecord(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string';
}

/** The `apiVersion` and `kind` of a document that has both as strings at its top level. */
export interface ObjectHead {
  readonly apiVersion: string;
  readonly kind: string;
}

/** How much of a text is looked at: a first document's keys are near its start. */
const PEEK_CHARACTERS = 64 * 1024;

/** A top-level `apiVersion` or `kind` key (plain or quoted), and what follows its colon. */
const HEAD_KEY = /^(["']?)(apiVersion|kind)\1[ \t]*:(?:[ \t]+(.*))?$/;

/** A line that starts a document (`---`) or ends one (`...`). */
const DOCUMENT_START = /^---(?:[ \t]|$)/;
const DOCUMENT_END = /^\.\.\.(?:[ \t]|$)/;

/** A top-level explicit key (`? apiVersion`, its value on a `: ...` line). */
const EXPLICIT_KEY = /^\?(?:[ \t]|$)/;

/** A line with nothing in it but a comment. */
const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?$/;

/** A plain scalar YAML resolves to other than a string: null, a boolean, a number. */
const NOT_A_STRING =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d+)?|0x[0-9a-fA-F_]+|0o[0-7_]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/**
 * The `apiVersion` and `kind` of the first document of `text`, when it has both at its top level
 * as strings (`apiVersion: apps/v1` and `kind: Deployment`, in a block mapping or a flow mapping
 * such as `{apiVersion: v1, kind: ConfigMap}`), else `undefined`. Only the first
 * {@link PEEK_CHARACTERS} characters are read, line by line; keys past them are not seen.
 *
 * @example
 * objectHeadOf('apiVersion: v1\nkind: ConfigMap\n'); // { apiVersion: 'v1', kind: 'ConfigMap' }
 * objectHeadOf('replicaCount: 1\nimage: nginx\n'); // undefined
 */
export function objectHeadOf(text: string): ObjectHead | undefined {
  const bounded = text.length > PEEK_CHARACTERS;
  // A line cut by the bound is not read.
  const end = bounded ? text.lastIndexOf('\n', PEEK_CHARACTERS) : text.length;
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lines = text.slice(start, Math.max(end, start)).split(/\r?\n/);
  /** Each key's value: a string, `null` when it is no string, absent until met. */
  const found = new Map<string, string | null>();
  let first: number | undefined;
  let last = lines.length;
  /** Whether the first document has a top-level explicit key (`? apiVersion`). */
  let explicitKey = false;
  for (const [at, line] of lines.entries()) {
    if (DOCUMENT_START.test(line) || DOCUMENT_END.test(line)) {
      if (first !== undefined) {
        last = at;
        break;
      }
      continue;
    }
    if (BLANK_OR_COMMENT.test(line) || (first === undefined && line.startsWith('%'))) continue;
    first ??= at;
    if (EXPLICIT_KEY.test(line)) explicitKey = true;
    const key = HEAD_KEY.exec(line);
    if (key?.[2] !== undefined && !found.has(key[2])) found.set(key[2], stringOf(key[3]));
  }
  if (first === undefined) return undefined;
  const whole = !bounded || last < lines.length;
  if ((lines[first] ?? '').startsWith('{')) {
    return parsedHeadOf(lines.slice(first, last).join('\n'), whole);
  }
  const apiVersion = found.get('apiVersion');
  const kind = found.get('kind');
  if (typeof apiVersion === 'string' && typeof kind === 'string') return { apiVersion, kind };
  // Keys whose value the line does not show as a plain string (`kind: !!str Deployment`, the
  // value on the next line, `? apiVersion`): the document is parsed, as kubectl would read it.
  const unsure = (key: string) => found.get(key) === null || (explicitKey && !found.has(key));
  if (
    (unsure('apiVersion') || unsure('kind')) &&
    (found.has('apiVersion') || explicitKey) &&
    (found.has('kind') || explicitKey)
  ) {
    return parsedHeadOf(lines.slice(first, last).join('\n'), whole);
  }
  return undefined;
}

/** The head of a document parsed whole, when it is whole (`whole`). */
function parsedHeadOf(document: string, whole: boolean): ObjectHead | undefined {
  if (!whole) return undefined;
  let value: unknown;
  try {
    value = parse(document, { uniqueKeys: false, maxAliasCount: 100, logLevel: 'silent' });
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { apiVersion, kind } = value as { apiVersion?: unknown; kind?: unknown };
  return typeof apiVersion === 'string' && typeof kind === 'string'
    ? { apiVersion, kind }
    : undefined;
}

/**
 * The string a key's value on its own line is (`apps/v1`, `"v1"`, `'v1'`, a comment after it),
 * or `null` for one that is none: empty (a block below), a flow collection, an anchor, alias or
 * tag, a block scalar, a null, boolean or number.
 */
function stringOf(raw: string | undefined): string | null {
  const value = raw?.trim() ?? '';
  if (value.startsWith('"')) {
    const quoted = /^"((?:[^"\\]|\\.)*)"[ \t]*(?:#.*)?$/.exec(value)?.[1];
    if (quoted === undefined) return null;
    try {
      return JSON.parse(`"${quoted}"`) as string;
    } catch {
      return null;
    }
  }
  if (value.startsWith("'")) {
    const quoted = /^'((?:[^']|'')*)'[ \t]*(?:#.*)?$/.exec(value)?.[1];
    return quoted === undefined ? null : quoted.replaceAll("''", "'");
  }
  // A comment begins at a `#` after a space (found once: a run of spaces is not scanned again).
  const comment = /[ \t]#/.exec(value);
  const plain = comment === null ? value : value.slice(0, comment.index).trimEnd();
  if (plain === '' || /^[[\]{}&*!|>%@`#,]/.test(plain) || NOT_A_STRING.test(plain)) return null;
  return plain;
}
