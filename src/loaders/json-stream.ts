/**
 * A stream of JSON objects, one after another, as `jq '.items[]'` and `jq -c` print them and as
 * kubectl reads them (`YAMLOrJSONDecoder`, which decodes JSON values until the input ends, with
 * or without white space between them: `{...}{...}` too). YAML reads one value per document, so
 * the stream is made a YAML stream: a line `--- ` is inserted before each object after the first,
 * and positions are counted back to the text as written ({@link InsertedTextIndex}).
 */

import { LineIndex } from './line-index.js';
import type { Position } from './position.js';

/** A JSON stream as a YAML stream: its text, and what was inserted into it. */
export interface JsonStreamText {
  readonly text: string;
  /** Each insertion, in order: its offset in `text` and its length. */
  readonly insertions: readonly (readonly [number, number])[];
}

const MARKER = '\n--- ';

/**
 * The YAML stream of `text` when it is two or more JSON objects; `undefined` for anything else
 * (one object, YAML, an array, an object left open), which is parsed as it is.
 */
export function jsonStreamAsYaml(text: string): JsonStreamText | undefined {
  const starts = jsonStreamObjects(text)?.map(([start]) => start);
  if (starts === undefined) return undefined;
  const parts: string[] = [];
  const insertions: [number, number][] = [];
  let from = 0;
  for (const start of starts.slice(1)) {
    parts.push(text.slice(from, start));
    insertions.push([start + insertions.length * MARKER.length, MARKER.length]);
    parts.push(MARKER);
    from = start;
  }
  parts.push(text.slice(from));
  return { text: parts.join(''), insertions };
}

/**
 * Where each object of a stream of two or more JSON objects is (`[start, end)`, offsets in
 * `text`), white space (or none) between them; `undefined` when `text` is no such stream.
 */
export function jsonStreamObjects(text: string): [number, number][] | undefined {
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return undefined;
  const objects: [number, number][] = [];
  while (at < text.length) {
    const end = objectEnd(text, at);
    if (end === undefined) return undefined;
    objects.push([at, end]);
    at = skipSpace(text, end);
    if (at < text.length && text[at] !== '{') return undefined;
  }
  return objects.length < 2 ? undefined : objects;
}

/**
 * Positions in a text made of another by insertions, counted in the other: what was inserted
 * takes no room (a position inside an insertion is where it was inserted).
 */
export class InsertedTextIndex extends LineIndex {
  readonly insertions: readonly (readonly [number, number])[];

  constructor(text: string, insertions: readonly (readonly [number, number])[], origin?: Position) {
    super(withoutInsertions(text, insertions), origin);
    this.insertions = insertions;
  }

  protected override textPos(offset: number): Position {
    let removed = 0;
    for (const [at, length] of this.insertions) {
      if (at >= offset) break;
      removed += Math.min(length, offset - at);
    }
    return super.textPos(offset - removed);
  }
}

/** `text` without its insertions: the text as written. */
function withoutInsertions(
  text: string,
  insertions: readonly (readonly [number, number])[],
): string {
  const parts: string[] = [];
  let from = 0;
  for (const [at, length] of insertions) {
    parts.push(text.slice(from, at));
    from = at + length;
  }
  parts.push(text.slice(from));
  return parts.join('');
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
