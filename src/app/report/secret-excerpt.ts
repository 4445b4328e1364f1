import { NOT_SHOWN } from '../shown-spec.js';

/** A line that starts a YAML document (`---`, maybe with a comment or a value after it). */
const DOCUMENT_START = /^---(\s|$)/;
/** A document's top-level `kind: Secret` (quoted or not, a comment after it). */
const SECRET_KIND = /^kind:\s*(["']?)Secret\1\s*(#.*)?$/;
/** A top-level field that holds a Secret's values. */
const VALUES_FIELD = /^(data|stringData):(.*)$/;
/** A line of a block mapping: its indentation and key, up to the `:` and the space after it. */
const KEY_LINE = /^(\s+(?:"[^"]*"|'[^']*'|[^\s:#"'][^:#]*?)\s*:)(\s|$)/;

/**
 * The lines `first` to `last` (1-based, inclusive) of a YAML file, with the values of a core
 * Secret's `data` and `stringData` withheld where they are in a Secret's document, as the
 * report's details withhold them ({@link NOT_SHOWN}): a finding's excerpt in a page shared from
 * CI must not print what the page keeps back elsewhere. The keys stay: they say what it holds.
 */
export function withholdSecretLines(
  lines: readonly string[],
  first: number,
  last: number,
): string[] {
  const shown = lines.slice(first - 1, last);
  let start = first - 1;
  while (start > 0 && !DOCUMENT_START.test(lines[start] ?? '')) start--;
  let end = first - 1;
  while (end < lines.length && !(end > start && DOCUMENT_START.test(lines[end] ?? ''))) end++;
  const document = lines.slice(start, end);
  if (!document.some((l) => SECRET_KIND.test(l))) return shown;
  let inValues = false;
  for (let n = start; n < last; n++) {
    const line = lines[n] ?? '';
    const top = VALUES_FIELD.exec(line);
    let replaced = line;
    if (top) {
      inValues = true;
      // `data: {password: x}`: an inline value, withheld whole.
      const rest = top[2]?.trim() ?? '';
      if (rest !== '' && !rest.startsWith('#')) replaced = `${top[1]}: ${NOT_SHOWN}`;
    } else if (/^\S/.test(line)) {
      inValues = false;
    } else if (inValues && line.trim() !== '' && !line.trim().startsWith('#')) {
      const key = KEY_LINE.exec(line);
      const indent = /^\s*/.exec(line)?.[0] ?? '';
      replaced = key ? `${key[1]} ${NOT_SHOWN}` : `${indent}${NOT_SHOWN}`;
    }
    if (n >= first - 1) shown[n - (first - 1)] = replaced;
  }
  return shown;
}
