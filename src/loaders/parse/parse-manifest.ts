import { LineCounter, type Document } from 'yaml';
import { createFinding, type Finding } from '../finding.js';
import { findForbiddenCharacters, forbiddenCharacterMessage } from '../forbidden-characters.js';
import type { Position } from '../position.js';
import { LineIndex } from '../line-index.js';
import { relaxIndentation, ShiftedLineIndex } from '../relaxed-indentation.js';

export { MAX_CRD_BYTES } from '../request-limits.js';
import { NestingTooDeepError, parseYamlStream, YamlSource } from '../yaml-source.js';
import { headerStarts, nodeStart } from '../yaml-node-starts.js';
import { listItemStarts } from '../list-item-starts.js';
import { YamlDocument } from '../yaml-document.js';
import { kubectlDocumentBreaks, type DocumentBreak } from '../kubectl-document-breaks.js';
import { InsertedTextIndex, jsonStreamAsYaml } from '../json-stream.js';
import type { ParseManifestOptions, ParsedManifest, ParseTextOptions } from '../parsed-manifest.js';
import { oversizedCrd } from './oversized-crd.js';
import { checkKubectlDirectives, checkVersion } from './yaml-directives.js';
import { allowedAliasedCharacters, DEFAULT_MAX_DEPTH, type Limits } from './yaml-build-limits.js';
import { readDocument } from './read-yaml-document.js';
import { readPlainJsonObject } from './plain-json-object.js';
import { fromYamlError } from './yaml-error-findings.js';
import { isKubernetesObjectValue } from '../object-head.js';

export type { Position } from '../position.js';

export type {
  ParseManifestOptions,
  ParsedDocument,
  ParsedManifest,
  ParseTextOptions,
} from '../parsed-manifest.js';

/**
 * Parses a YAML stream into plain data per document, with findings for everything wrong in it.
 * Pure: no file system. Never throws for bad input.
 *
 * The data is built from yaml's syntax tree rather than with `toJS`, so that `__proto__` keys are
 * own keys (never an object's prototype), duplicate keys are caught as
 * JavaScript sees them, and alias expansion is bounded.
 *
 * @example
 * const { documents, findings } = parseManifest('metadata: {type: vm, id: a}\nspec: {}\n', 'vms.yaml');
 * documents[0]?.value // { metadata: { type: 'vm', id: 'a' }, spec: {} }
 * documents[0]?.locate('/metadata/id') // { line: 1, col: 25 }
 */
export function parseManifest(
  written: string,
  file: string,
  options: ParseTextOptions = {},
): ParsedManifest {
  // A byte order mark may start any document of a stream, not only the first (YAML 1.2, 9.1.1);
  // yaml reads a later one into the first key, and fails on one before a top-level sequence.
  // It is invisible in editors, so columns are counted without it.
  const unmarked = written.includes('\ufeff') ? written.replace(DOCUMENT_BOM, '$1') : written;
  // `jq '.items[]'`: JSON objects one after another, as kubectl reads them; YAML reads one a
  // document, so each is made one (positions as written).
  const stream =
    unmarked.startsWith('{') || /^\s+\{/.test(unmarked) ? jsonStreamAsYaml(unmarked) : undefined;
  const text = stream?.text ?? unmarked;
  const { origin } = options;
  const lineCounter = stream
    ? new InsertedTextIndex(stream.text, stream.insertions, origin)
    : countLines(text, origin);
  // Refused before it is parsed: the parse is what would cost seconds and gigabytes.
  const tooLarge = oversizedCrd(text, file, lineCounter);
  if (tooLarge) return { file, documents: [], findings: [tooLarge] };
  // Where kubectl cuts the stream otherwise than YAML, on the lines as written.
  const breaks = stream === undefined ? kubectlDocumentBreaks(text, origin?.line) : [];
  const parsed = parseStream(text, file, options, lineCounter, breaks);
  if (!parsed.findings.some((f) => f.code === 'yaml-syntax')) return parsed;
  // What kubectl reads but YAML 1.2 does not: a quoted value or flow collection whose lines go
  // on at its key's column. Read as kubectl reads it when that is all that was wrong, and said.
  const relaxed = relaxIndentation(text);
  if (relaxed === undefined) return parsed;
  const again = parseStream(
    relaxed.text,
    file,
    options,
    new ShiftedLineIndex(relaxed.text, relaxed.shifts, origin),
    breaks,
  );
  if (again.findings.some((f) => f.code === 'yaml-syntax')) return parsed;
  // Said once a file: a generator writes all its values so (OpenTelemetry's bundle has 255).
  const [first, ...more] = relaxed.constructs;
  if (first === undefined) return parsed;
  // The construct's lines are the text's: in the file, they are where the text is.
  const key = lineCounter.inFile({ line: first.line, col: first.keyColumn });
  const shifted = lineCounter.inFile({ line: first.firstShifted, col: 1 });
  // A value going on at a line kubectl cuts the file at is refused there, not read so.
  if (breaks.some((b) => b.line === shifted.line)) return again;
  const others = more.length === 0 ? '' : ` (and ${more.length} more values in this file)`;
  const said = createFinding({
    code: 'yaml-warning',
    message: `this line goes on with the value of line ${key.line}, but is not indented past its key (column ${key.col}): kubectl (go-yaml) reads it so, YAML 1.2 does not; indent it${others}`,
    file,
    ...shifted,
    pointer: '',
  });
  return { ...again, findings: [said, ...again.findings] };
}

/**
 * A text this long that is one JSON object is read with `JSON.parse` when the yaml reader would
 * find nothing in it (`plain-json-object.ts`); a shorter one costs little either way.
 */
const PLAIN_JSON_MIN_LENGTH = 64 * 1024;

/** {@link parseManifest} of a text whose byte order marks are out, positions from `lineCounter`. */
function parseStream(
  text: string,
  file: string,
  options: ParseManifestOptions,
  lineCounter: LineIndex,
  breaks: readonly DocumentBreak[],
): ParsedManifest {
  const findings: Finding[] = [];
  const documents: YamlDocument[] = [];
  /** The line each of `documents` starts at (its `---` included). */
  const startLines: number[] = [];
  const limits: Limits = {
    maxAliasCount: options.maxAliasCount ?? Number.POSITIVE_INFINITY,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    aliasedCharacters: {
      allowed: allowedAliasedCharacters(text.length),
      left: allowedAliasedCharacters(text.length),
    },
  };
  const forbidden = findForbiddenCharacters(text);
  const source = new YamlSource(text, lineCounter);
  const plain =
    text.length >= PLAIN_JSON_MIN_LENGTH && forbidden.length === 0 && breaks.length === 0
      ? readPlainJsonObject(text)
      : undefined;
  if (plain !== undefined) {
    source.addDocument(0, {
      start: 0,
      end: text.length,
      contentsStart: plain.start,
      ...(plain.kindStart === undefined ? {} : { kindStart: plain.kindStart }),
      ...(plain.nameStart === undefined ? {} : { nameStart: plain.nameStart }),
    });
    if (plain.items !== undefined) source.addListItems(0, plain.items);
    const position = lineCounter.linePos(plain.start);
    return {
      file,
      documents: [new YamlDocument(file, 0, position, plain.value, false, source)],
      findings,
    };
  }
  let start = 0;
  let index = 0;
  const onDocument = (doc: Document.Parsed): void => {
    const end = doc.range[2];
    source.addDocument(index, {
      start: doc.range[0],
      end,
      contentsStart: doc.contents ? nodeStart(doc.contents) : doc.range[0],
      ...headerStarts(doc.contents),
    });
    const items = listItemStarts(doc.contents);
    if (items !== undefined) source.addListItems(index, items);
    const otherVersion = checkVersion(doc, text, start, file, lineCounter, findings);
    const parsedDoc = readDocument(doc, index, file, lineCounter, source, limits, findings);
    // kubectl reads a file's first document with the directives before it; one after an end
    // marker (`...`) later on is the end of the document before, which go-yaml never reads.
    const refusedByKubectl =
      index === 0 &&
      !otherVersion &&
      parsedDoc !== undefined &&
      isKubernetesObjectValue(parsedDoc.value) &&
      checkKubectlDirectives(text.slice(start, doc.range[0]), start, file, lineCounter, findings);
    // A forbidden character in a document refuses the document.
    const bad =
      otherVersion ||
      refusedByKubectl ||
      forbidden.some((c) => c.offset >= start && c.offset < end);
    start = end;
    index++;
    if (parsedDoc !== undefined) {
      documents.push(bad ? parsedDoc.withErrors() : parsedDoc);
      startLines.push(lineCounter.linePos(doc.range[0]).line);
    }
  };
  let empty: ReturnType<typeof parseYamlStream>;
  try {
    // yaml's parser misses line feeds in some broken input: positions use the lines counted above.
    empty = parseYamlStream(text, new LineCounter(), onDocument);
  } catch (error) {
    if (!(error instanceof NestingTooDeepError)) throw error;
    const { line, col } = lineCounter.linePos(error.offset);
    // Nothing of a file nested too deeply is loaded, not even the documents before.
    const finding = createFinding({
      code: 'nesting-too-deep',
      message: error.message,
      file,
      line,
      col,
      pointer: '',
    });
    return { file, documents: [], findings: [finding] };
  }
  if (empty !== undefined) {
    for (const error of empty.errors) findings.push(fromYamlError(error, file, lineCounter));
    for (const warning of empty.warnings) findings.push(fromYamlError(warning, file, lineCounter));
    return { file, documents, findings };
  }
  markKubectlBreaks(breaks, documents, startLines, file, findings);
  for (const { offset, code } of forbidden) {
    const { line, col } = lineCounter.linePos(offset);
    findings.push(
      createFinding({
        code: 'control-character',
        message: forbiddenCharacterMessage(code),
        file,
        line,
        col,
        pointer: '',
      }),
    );
  }
  return { file, documents, findings };
}

/**
 * Reports each line kubectl cuts the stream at otherwise than YAML (`kubectl-document-breaks.ts`)
 * on the document it falls in, when that is a Kubernetes object (what kubectl applies), and
 * marks the document refused.
 */
function markKubectlBreaks(
  breaks: readonly DocumentBreak[],
  documents: YamlDocument[],
  startLines: readonly number[],
  file: string,
  findings: Finding[],
): void {
  let at = 0;
  for (const { line, message } of breaks) {
    while (at + 1 < startLines.length && (startLines[at + 1] ?? Infinity) <= line) at++;
    const document = documents[at];
    if (document === undefined || (startLines[at] ?? Infinity) > line) continue;
    if (!isKubernetesObjectValue(document.value)) continue;
    // A `--- !!map` line before the document's first key is reported at that key: the
    // document's own finding.
    const { position } = document;
    const place = position.line > line ? position : { line, col: 1 };
    findings.push(
      createFinding({ code: 'document-separator', message, file, ...place, pointer: '' }),
    );
    documents[at] = document.withErrors();
  }
}

/** Every line of a text, by its line feeds, before parsing: findings are made while it goes on. */
function countLines(text: string, origin: Position | undefined): LineIndex {
  return new LineIndex(text, origin);
}

/** A byte order mark at the start of the stream, before a `---`, `...` or directive, or after `---`. */
const DOCUMENT_BOM = /(^|\n(?=\ufeff(?:---|\.\.\.|%))|\n---[ \t]*\n)\ufeff/g;
