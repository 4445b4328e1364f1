/**
 * A long YAML stream cut into segments of whole documents at its `---` lines, so that an edit of
 * one document is parsed and checked again with the few documents beside it, not with the whole
 * file (`segmented-parse.ts`).
 *
 * Where a segment ends is decided by the content of the document that ends it (a hash of its
 * text), not by its place: a document added or removed moves the cuts of its own segment only,
 * and every other segment keeps its text.
 */

/** One segment: its text, and where it stands in the stream. */
export interface StreamSegment {
  readonly text: string;
  /** 1-based line of the segment's first line in the stream. */
  readonly line: number;
  /** 0-based index (as `ParsedDocument.index`, empty documents counted) of its first document. */
  readonly firstIndex: number;
  /** How many documents (empty ones counted) it holds. */
  readonly documents: number;
  /** A hash of its documents' texts: segments of equal text have equal hashes. */
  readonly hash: number;
}

/** A document's separator line, as `parseManifest` finds them (with the line feed after it). */
const SEPARATOR_LINE = /^---[ \t]*(?:#[^\n]*)?$/gm;

/**
 * What a segment could read otherwise than the whole stream does, so a stream that holds any of
 * it is not cut: directives and document ends (`%YAML`, `...`), a document that starts on its
 * `---` line (`--- !!map`, `--- {`), anchors and aliases where a node may start (a stream's
 * aliases share one budget; `a && b` or `e.g. *.yaml` inside a string is neither), carriage
 * returns (`---\r` is a separator YAML sees and the line scan would not) and byte order marks.
 */
const UNCUT =
  /^(?:%|\.\.\.(?:[ \t#]|$)|---[ \t]+[^\s#])|\r|\ufeff|(?:^[ \t]*|[:,[{-][ \t]+|[[{,])[&*][^\s,\]}]/m;

/** Whether a line of the text before the first separator holds content (not blank, no comment). */
const CONTENT_LINE = /^[ \t]*[^\s#]/m;

/** A segment ends after a document whose hash is 0 modulo this: about this many documents each. */
const AVERAGE_DOCUMENTS = 16;
/** ... and after this many documents at most, whatever their hashes. */
const MAX_DOCUMENTS = 128;
/** Streams of fewer documents are parsed whole. */
const MIN_DOCUMENTS = 2 * AVERAGE_DOCUMENTS;

/**
 * The stream's segments, in order (their texts joined are the text), or `undefined` when it is
 * not worth cutting (few documents) or could read otherwise cut (see {@link UNCUT}; a JSON
 * stream).
 *
 * @example
 * streamSegments(text)?.map((s) => s.line) // [1, 161, 321, ...]
 */
export function streamSegments(text: string): StreamSegment[] | undefined {
  if (/^\s*[{[]/.test(text) || UNCUT.test(text)) return undefined;
  const starts = [0];
  for (const match of text.matchAll(SEPARATOR_LINE)) if (match.index > 0) starts.push(match.index);
  if (starts.length < MIN_DOCUMENTS) return undefined;
  const segments: StreamSegment[] = [];
  let from = 0;
  let line = 1;
  let firstIndex = 0;
  let documents = 0;
  let folded = FNV_OFFSET;
  const cut = (to: number): void => {
    const segment = text.slice(starts[from], to);
    segments.push({ text: segment, line, firstIndex, documents, hash: folded >>> 0 });
    line += countLineFeeds(segment);
    firstIndex += documents;
    documents = 0;
    folded = FNV_OFFSET;
  };
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i] as number;
    const end = starts[i + 1] ?? text.length;
    // Text before the first separator is a document only when it holds content; each separator
    // starts one, empty or not.
    if (start > 0 || text.startsWith('---') || CONTENT_LINE.test(text.slice(0, end))) documents++;
    const own = hash(text, start, end);
    folded = Math.imul(folded ^ own, FNV_PRIME);
    if (i + 1 - from >= MAX_DOCUMENTS || own % AVERAGE_DOCUMENTS === 0) {
      cut(end);
      from = i + 1;
    }
  }
  if (from < starts.length) cut(text.length);
  return segments;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** A document's hash reads its length and at most this many of its last characters. */
const HASHED_CHARACTERS = 512;

/** FNV-1a of the length and the last characters of `text.slice(start, end)`. */
function hash(text: string, start: number, end: number): number {
  let h = Math.imul(FNV_OFFSET ^ (end - start), FNV_PRIME);
  for (let i = Math.max(start, end - HASHED_CHARACTERS); i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  // FNV's low bits mix only the characters' low bits: mixed as MurmurHash3's finalizer does, so
  // that `% AVERAGE_DOCUMENTS` reads all of them.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function countLineFeeds(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
