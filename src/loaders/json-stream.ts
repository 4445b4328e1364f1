/**
 * A stream of JSON objects, one after another, as `jq '.items[]'` and `jq -c` print them and as
 * kubectl reads them (`YAMLOrJSONDecoder`, which decodes JSON values until the input ends). YAML
 * reads one value per document, so the stream is made a YAML stream of the same lines: each
 * object after the first, which starts a line, gets a `--- ` before it, and positions on that line
 * are read 4 columns back (`ShiftedLineIndex`).
 */

/** A JSON stream as a YAML stream: its text, and the columns each changed line gained. */
export interface JsonStreamText {
  readonly text: string;
  /** 1-based line -> the columns added at its start. */
  readonly shifts: ReadonlyMap<number, number>;
}

const MARKER = '--- ';

/**
 * The YAML stream of `text` when it is two or more JSON objects, each after the first starting
 * a line; `undefined` for anything else (one object, YAML, objects sharing a line), which is
 * parsed as it is.
 */
export function jsonStreamAsYaml(text: string): JsonStreamText | undefined {
  const first = skipSpace(text, 0);
  if (text[first] !== '{') return undefined;
  /** Where each object after the first starts its line. */
  const lineStarts: number[] = [];
  let at = first;
  while (at < text.length) {
    const end = objectEnd(text, at);
    if (end === undefined) return undefined;
    const next = skipSpace(text, end);
    if (next >= text.length) break;
    if (text[next] !== '{') return undefined;
    const lineStart = text.lastIndexOf('\n', next - 1) + 1;
    if (lineStart <= end || text.slice(lineStart, next).trim() !== '') return undefined;
    lineStarts.push(lineStart);
    at = next;
  }
  if (lineStarts.length === 0) return undefined;
  const parts: string[] = [];
  const shifts = new Map<number, number>();
  let from = 0;
  let line = 1;
  for (const start of lineStarts) {
    const chunk = text.slice(from, start);
    parts.push(chunk, MARKER);
    line += countLineFeeds(chunk);
    shifts.set(line, MARKER.length);
    from = start;
  }
  parts.push(text.slice(from));
  return { text: parts.join(''), shifts };
}

/** The index after the JSON object that starts at `start` (a `{`), or `undefined` if unclosed. */
function objectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === '{' || ch === '[') {
      depth++;
    } else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && ' \t\r\n'.includes(text[i] as string)) i++;
  return i;
}

function countLineFeeds(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
