/**
 * The parse of a long manifest file again after an edit, segment by segment
 * (`stream-segments.ts`): the segments whose text and place did not change keep their parse (and
 * whatever the cache keeps with it), the others are parsed as excerpts of the file at their
 * place. The documents are those of a parse of the whole file: same values, positions and
 * indexes. Whenever a segment's parse finds anything (a YAML error, a warning), the file is
 * parsed whole instead, which reports it as it always does.
 */
import type { ParsedDocument, ParsedManifest, ParseTextOptions } from './parsed-manifest.js';
import type { StreamPositions } from './position.js';
import { streamSegments, type StreamSegment } from './stream-segments.js';
import { YamlDocument } from './yaml-document.js';

/** One segment of a file and its parse; `T` is what a caller keeps with it (a load). */
export interface ParsedSegment<T = unknown> extends StreamSegment {
  /** The segment's documents, as a parse of the whole file has them. */
  readonly parsed: ParsedManifest;
  kept?: T;
}

/** Parses one text: `parseManifest`, or a function that counts its calls. */
export type ParseText = (text: string, file: string, options: ParseTextOptions) => ParsedManifest;

/**
 * `text`'s segments, each with its parse: taken from `previous` where a segment has the same
 * text at the same place (line and document index), parsed otherwise. `undefined` when the text
 * is not cut (see `streamSegments`) or a segment's parse found anything: then the file is to be
 * parsed whole.
 */
export function parseSegments<T>(
  text: string,
  file: string,
  options: ParseTextOptions,
  previous: readonly ParsedSegment<T>[],
  parse: ParseText,
): ParsedSegment<T>[] | undefined {
  const segments = streamSegments(text);
  if (segments === undefined) return undefined;
  const kept = new Map<string, ParsedSegment<T>>();
  for (const segment of previous) kept.set(segmentKey(segment), segment);
  const parsed: ParsedSegment<T>[] = [];
  for (const segment of segments) {
    const same = kept.get(segmentKey(segment));
    if (same !== undefined && same.text === segment.text) {
      parsed.push(same);
      continue;
    }
    const own = parse(segment.text, file, { ...options, origin: { line: segment.line, col: 1 } });
    if (own.findings.length > 0) return undefined;
    if (own.documents.some((d) => d.index >= segment.documents)) return undefined;
    parsed.push({
      ...segment,
      parsed: { file, documents: placed(own.documents, segment), findings: [] },
    });
  }
  return parsed;
}

/**
 * The segments of a file parsed whole, each with its documents of that parse; `undefined` when
 * the text is not cut or its parse found anything (then nothing of it is kept by segment).
 */
export function segmentsOfWholeParse<T>(
  text: string,
  whole: ParsedManifest,
): ParsedSegment<T>[] | undefined {
  if (whole.findings.length > 0) return undefined;
  const segments = streamSegments(text);
  if (segments === undefined) return undefined;
  let at = 0;
  return segments.map((segment) => {
    const documents: ParsedDocument[] = [];
    const end = segment.firstIndex + segment.documents;
    while (at < whole.documents.length && (whole.documents[at] as ParsedDocument).index < end) {
      documents.push(whole.documents[at++] as ParsedDocument);
    }
    return { ...segment, parsed: { file: whole.file, documents, findings: [] } };
  });
}

/** The whole file's parse of its segments' parses. */
export function joinedParse(file: string, segments: readonly ParsedSegment[]): ParsedManifest {
  const documents: ParsedDocument[] = [];
  for (const segment of segments) {
    for (const document of segment.parsed.documents) documents.push(document);
  }
  return { file, documents, findings: [] };
}

/** Where a segment is and a hash of its text (the text itself is compared on a hit). */
function segmentKey(segment: StreamSegment): string {
  return `${segment.line}:${segment.firstIndex}:${segment.text.length}:${segment.hash}`;
}

/** A segment's documents, indexed as in the file (their positions are the file's already). */
function placed(documents: readonly ParsedDocument[], segment: StreamSegment): ParsedDocument[] {
  const offset = segment.firstIndex;
  const own = documents[0]?.source;
  if (offset === 0 || own === undefined) return [...documents];
  const source: StreamPositions = {
    locate: (index, pointer, part) => own.locate(index - offset, pointer, part),
    locateText: (index, pointer, text, occurrence) =>
      own.locateText(index - offset, pointer, text, occurrence),
  };
  return documents.map(({ file, index, position, value, hasErrors }) => {
    return new YamlDocument(file, index + offset, position, value, hasErrors, source);
  });
}
