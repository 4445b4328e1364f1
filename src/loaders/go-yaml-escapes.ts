/**
 * `\'` in a double-quoted scalar: no YAML 1.2 escape, but go-yaml (which kubectl reads manifests
 * with) takes it for `'`, so `"echo \'hi\'"` is a command the API server receives (the
 * Kubernetes docs' own examples write it). A Kubernetes object's such escapes are read as kubectl
 * reads them, with one warning a document; any other bad escape stays a YAML error.
 */

import { parse, type YAMLError } from 'yaml';

/** yaml's code for an escape YAML 1.2 does not have. */
const BAD_ESCAPE = 'BAD_DQ_ESCAPE';

/** Where each of `errors` that is a `\'` escape is in `text` (the offset of its backslash). */
export function goYamlQuoteEscapes(errors: readonly YAMLError[], text: string): Set<number> {
  const offsets = new Set<number>();
  for (const error of errors) {
    const at = error.pos[0];
    if (error.code === BAD_ESCAPE && text.startsWith("\\'", at)) offsets.add(at);
  }
  return offsets;
}

/** Whether one of `sorted` (ascending offsets) is in `[start, end)`. */
export function hasEscapeIn(sorted: readonly number[], start: number, end: number): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < start) low = middle + 1;
    else high = middle;
  }
  return low < sorted.length && (sorted[low] as number) < end;
}

/**
 * The value of the double-quoted scalar `text[start, end)` (its quotes included) as go-yaml
 * reads it: each `\'` at one of `sorted` (ascending offsets) is `'`, the rest as YAML 1.2 reads it.
 */
export function decodeWithQuoteEscapes(
  text: string,
  start: number,
  end: number,
  sorted: readonly number[],
): string {
  let written = '';
  let from = start;
  for (
    let at = text.indexOf("\\'", start);
    at !== -1 && at < end;
    at = text.indexOf("\\'", at + 2)
  ) {
    if (!hasEscapeIn(sorted, at, at + 1)) continue;
    written += `${text.slice(from, at)}\\x27`;
    from = at + 2;
  }
  written += text.slice(from, end);
  // A double-quoted scalar alone: its line folding does not depend on its indentation.
  return parse(written) as string;
}
