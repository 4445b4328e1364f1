import { NOT_SHOWN } from '../shown-spec.js';

/** A line that starts a YAML document (`---`, maybe with a comment or a value after it). */
const DOCUMENT_START = /^---(\s|$)/;
/** A document's top-level `kind: Secret` (quoted or not, a comment after it). */
const SECRET_KIND = /^kind:\s*(["']?)Secret\1\s*(#.*)?$/;
/** A top-level field that holds a Secret's values. */
const VALUES_FIELD = /^(data|stringData):(.*)$/;
/** A top-level field of a sensitive type's document that is not its head: all of its content. */
const CONTENT_FIELD = /^((?!(?:apiVersion|kind|metadata)\s*:)[^\s#-][^:]*):(.*)$/;
/** A line of a block mapping: its indentation and key, up to the `:` and the space after it. */
const KEY_LINE = /^(\s+(?:"[^"]*"|'[^']*'|[^\s:#"'][^:#]*?)\s*:)(\s|$)/;

/**
 * The lines `first` to `last` (1-based, inclusive) of a YAML file, with the values of a core
 * Secret's `data` and `stringData` withheld where they are in a Secret's document, as the
 * report's details withhold them ({@link NOT_SHOWN}): a finding's excerpt in a page shared from
 * CI must not print what the page keeps back elsewhere. The keys stay: they say what it holds.
 * In the documents of a sensitive type (`sensitiveAt` of a 0-based line index), every value but
 * the head's (`apiVersion`, `kind`, `metadata`) is withheld: all of its content.
 */
export function withholdSecretLines(
  lines: readonly string[],
  first: number,
  last: number,
  sensitiveAt?: (index: number) => boolean,
): string[] {
  const shown = lines.slice(first - 1, last);
  // Each document the excerpt touches, from its start: the lines around a finding may end the
  // document before it or begin the one after it, a Secret's too.
  let n = first - 1;
  while (n > 0 && !DOCUMENT_START.test(lines[n] ?? '')) n--;
  let secret = false;
  let inValues = false;
  for (; n < last; n++) {
    const line = lines[n] ?? '';
    if (DOCUMENT_START.test(line) || n === 0) secret = isSecretDocument(lines, n);
    const sensitive = sensitiveAt?.(n) === true;
    const withheld = secret || sensitive;
    const top = (sensitive ? CONTENT_FIELD : VALUES_FIELD).exec(line);
    let replaced = line;
    if (top) {
      inValues = true;
      // `data: {password: x}`: an inline value, withheld whole.
      const rest = top[2]?.trim() ?? '';
      if (withheld && rest !== '' && !rest.startsWith('#')) replaced = `${top[1]}: ${NOT_SHOWN}`;
    } else if (/^\S/.test(line)) {
      inValues = false;
    } else if (withheld && inValues && line.trim() !== '' && !line.trim().startsWith('#')) {
      const key = KEY_LINE.exec(line);
      const indent = /^\s*/.exec(line)?.[0] ?? '';
      replaced = key ? `${key[1]} ${NOT_SHOWN}` : `${indent}${NOT_SHOWN}`;
    }
    if (n >= first - 1) shown[n - (first - 1)] = replaced;
  }
  return shown;
}

/** Whether the document that starts at line index `start` has a top-level `kind: Secret`. */
function isSecretDocument(lines: readonly string[], start: number): boolean {
  for (let n = start; n < lines.length; n++) {
    const line = lines[n] ?? '';
    if (n > start && DOCUMENT_START.test(line)) return false;
    if (SECRET_KIND.test(line)) return true;
  }
  return false;
}
