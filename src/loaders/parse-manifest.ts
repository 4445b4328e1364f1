import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  YAMLWarning,
  type YAMLError,
  type Alias,
  type Document,
  type Node as YamlNode,
  type Scalar,
} from 'yaml';
import { createFinding, type Finding, type FindingCode } from './finding.js';
import { findForbiddenCharacters, forbiddenCharacterMessage } from './forbidden-characters.js';
import { jsonPointer } from './json-pointer.js';
import type { Position } from './position.js';
import { LineIndex } from './line-index.js';
import { relaxIndentation, ShiftedLineIndex } from './relaxed-indentation.js';
import { MAX_CRD_BYTES } from './request-limits.js';

export { MAX_CRD_BYTES } from './request-limits.js';
import { MAX_MESSAGE_LENGTH, shorten, shortenMessage } from './shorten.js';
import {
  headerStarts,
  NestingTooDeepError,
  nodeStart,
  parseYamlStream,
  YamlSource,
} from './yaml-source.js';
import { YamlDocument } from './yaml-document.js';
import { kubectlDocumentBreaks, type DocumentBreak } from './kubectl-document-breaks.js';
import { InsertedTextIndex, jsonStreamAsYaml } from './json-stream.js';
import { MAX_FINDINGS_PER_DOCUMENT } from './document-finding-limit.js';
import { decodeWithQuoteEscapes, goYamlQuoteEscapes, hasEscapeIn } from './go-yaml-escapes.js';
import { goYamlNumber } from './go-yaml-numbers.js';
import { defineOwn } from '../engine/resource/plain-data.js';
import { goYamlBinary, isGoYamlTimestamp } from './go-yaml-tags.js';
import { GO_YAML_BOOLEANS, kubectlKey, YAML11_OCTAL, type KubectlKey } from './go-yaml-keys.js';
import {
  templateExpressionMessage,
  templateInBrokenDocument,
  type TemplateMarker,
} from './template-markers.js';
import type { ParseManifestOptions, ParsedManifest, ParseTextOptions } from './parsed-manifest.js';

export type { Position } from './position.js';

export type {
  ParseManifestOptions,
  ParsedDocument,
  ParsedManifest,
  ParseTextOptions,
} from './parsed-manifest.js';

const DEFAULT_MAX_DEPTH = 256;

/** YAML 1.1 booleans; YAML 1.2 (and so cosi) reads them as strings when they are not true/false. */
const YAML11_BOOLEANS = new Set(['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false']);

const TAG_PREFIX = 'tag:yaml.org,2002:';

/** How YAML 1.2's core schema writes an integer; such a number must be exact. */
const INTEGER_SYNTAX = /^[-+]?(?:[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+)$/;
/** How YAML 1.2's core schema writes infinity: other infinite numbers overflowed. */
const INFINITY_SYNTAX = /^[-+]?\.(?:inf|Inf|INF)$/;
/**
 * The keywords of a CRD's `openAPIV3Schema` that hold a limit, not data: the API server reads
 * them as Go's float64 or int64, and generated CRDs write int64's bounds
 * (`maximum: 9223372036854775807`), which lose a few units as a JavaScript number, as they do
 * as a float64. Their precision is not worth a finding.
 */
const SCHEMA_LIMITS = new Set([
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
]);

/** A document's separator line. */
const DOCUMENT_SEPARATOR = /^---[ \t]*(?:#.*)?$/gm;
/** A CRD's `kind`, at the top level of its document. */
const CRD_KIND_LINE = /^kind:[ \t]*["']?CustomResourceDefinition["']?[ \t]*(?:#.*)?$/m;

/** A flow-style (or JSON) top-level `kind` of a CRD, tried where a key of the outer mapping starts. */
const FLOW_CRD_KIND = /(\s*)(["']?)kind\2\s*:\s*(["']?)CustomResourceDefinition\3\s*[,}]/y;

/**
 * Where a document (the text between separators) says at its top level that it is a CRD:
 * a block-style `kind:` line, or the `kind` key of a flow-style or JSON outer mapping (found by
 * one pass that skips quoted strings and keeps count of the brackets); undefined when it does not.
 */
function crdKindAt(chunk: string): number | undefined {
  const line = CRD_KIND_LINE.exec(chunk);
  if (line !== null) return line.index;
  // The outer mapping's `{`, after blank lines, comments, directives and the separator.
  let i = 0;
  for (;;) {
    while (i < chunk.length && /\s/.test(chunk.charAt(i))) i++;
    const c = chunk.charAt(i);
    if (c !== '#' && c !== '%' && !chunk.startsWith('---', i)) break;
    const end = chunk.indexOf('\n', i);
    if (end < 0) return undefined;
    i = end + 1;
  }
  if (chunk.charAt(i) !== '{') return undefined;
  let depth = 0;
  for (; i < chunk.length; i++) {
    const c = chunk.charAt(i);
    if (c === '"') {
      for (i++; i < chunk.length && chunk.charAt(i) !== '"'; i++) if (chunk.charAt(i) === '\\') i++;
    } else if (c === "'") {
      // '' is a quote inside a single-quoted scalar: read as two strings, same end.
      i = chunk.indexOf("'", i + 1);
      if (i < 0) return undefined;
    } else if (c === '{' || c === '[') {
      depth++;
      const key = depth === 1 && c === '{' ? flowCrdKindAt(chunk, i + 1) : undefined;
      if (key !== undefined) return key;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return undefined;
    } else if (c === ',' && depth === 1) {
      const key = flowCrdKindAt(chunk, i + 1);
      if (key !== undefined) return key;
    }
  }
  return undefined;
}

/** Where the `kind` key of a CRD starts, if a key at `at` is one. */
function flowCrdKindAt(text: string, at: number): number | undefined {
  FLOW_CRD_KIND.lastIndex = at;
  const match = FLOW_CRD_KIND.exec(text);
  return match === null ? undefined : at + (match[1]?.length ?? 0);
}

/**
 * A finding for a CRD document over {@link MAX_CRD_BYTES} as JSON, found by a scan of the text
 * (the separators and a top-level `kind:` line) before anything is parsed; undefined when none
 * is. The JSON's size is estimated from the text without its indentation and comment lines,
 * which JSON does not have (a generated CRD's YAML is three times its JSON); one that may fit
 * is parsed, and measured as JSON when it is read (`crd-definitions.ts`).
 */
function oversizedCrd(text: string, file: string, lineCounter: LineIndex): Finding | undefined {
  if (Buffer.byteLength(text) <= MAX_CRD_BYTES) return undefined;
  const starts = [0, ...[...text.matchAll(DOCUMENT_SEPARATOR)].map((m) => m.index)];
  for (const [i, start] of starts.entries()) {
    const chunk = text.slice(start, starts[i + 1] ?? text.length);
    if (Buffer.byteLength(chunk) <= MAX_CRD_BYTES) continue;
    const bytes = compactBytes(chunk);
    const at = bytes > MAX_CRD_BYTES ? crdKindAt(chunk) : undefined;
    if (at !== undefined) {
      const { line, col } = lineCounter.linePos(start + at);
      return createFinding({
        code: 'definition-too-large',
        message: `this CustomResourceDefinition is about ${bytes} bytes as JSON: over the Kubernetes API server's request limit of ${MAX_CRD_BYTES} bytes, so no cluster would take it (not read)`,
        file,
        line,
        col,
        pointer: '',
      });
    }
  }
  return undefined;
}

/** Whether a document parses as YAML once relaxed as kubectl reads it (`relaxed-indentation.ts`). */
function parsesRelaxed(chunk: string): boolean {
  const relaxed = relaxIndentation(chunk);
  if (relaxed === undefined) return false;
  let clean = true;
  try {
    parseYamlStream(relaxed.text, new LineCounter(), (doc) => {
      clean &&= doc.errors.length === 0;
    });
  } catch {
    return false; // nested too deeply: not what kubectl reads either
  }
  return clean;
}

/** The bytes of `chunk` without the indentation of its lines and its comment lines. */
function compactBytes(chunk: string): number {
  let bytes = 0;
  for (const line of chunk.split('\n')) {
    const content = line.trimStart();
    if (!content.startsWith('#')) bytes += Buffer.byteLength(content);
  }
  return bytes;
}

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
    const otherVersion = checkVersion(doc, text, start, file, lineCounter, findings);
    const parsedDoc = readDocument(doc, index, file, lineCounter, source, limits, findings);
    // kubectl reads a file's first document with the directives before it; one after an end
    // marker (`...`) later on is the end of the document before, which go-yaml never reads.
    const refusedByKubectl =
      index === 0 &&
      !otherVersion &&
      parsedDoc !== undefined &&
      isKubernetesValue(parsedDoc.value) &&
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
    if (!isKubernetesValue(document.value)) continue;
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

/** Whether parsed data has an `apiVersion` and a `kind` as a Kubernetes object has. */
function isKubernetesValue(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>).apiVersion === 'string' &&
    typeof (value as Record<string, unknown>).kind === 'string'
  );
}

/**
 * Refuses a `%YAML` directive for another version than 1.2: cosi reads YAML 1.2 only, and
 * reading a 1.1 document as 1.2 would change its data (`0777`, `yes`) without a word.
 */
function checkVersion(
  doc: Document.Parsed,
  text: string,
  start: number,
  file: string,
  lineCounter: LineIndex,
  findings: Finding[],
): boolean {
  const { explicit, version } = doc.directives.yaml;
  if (!explicit || version === '1.2') return false;
  const directive = /^%YAML/m.exec(text.slice(start, doc.range[0]));
  const { line, col } = lineCounter.linePos(start + (directive?.index ?? 0));
  findings.push(
    createFinding({
      code: 'yaml-version',
      message: `%YAML ${version} is not supported: cosi reads YAML 1.2 (remove the directive, and check octals such as 0777 and booleans such as yes)`,
      file,
      line,
      col,
      pointer: '',
    }),
  );
  return true;
}

/** A directive line: its name, and its first parameter (a `%YAML` directive's version). */
const DIRECTIVE_LINE = /^%([^\s#]*)(?:[ \t]+([^\s#]+))?/gm;

/**
 * Refuses, in a Kubernetes object's file, the directives before its first document, as kubectl
 * does: go-yaml (after libyaml 0.1) takes `%YAML 1.1` alone ("found incompatible YAML document")
 * and knows `%YAML` and `%TAG` alone ("found unknown directive name"), and kubectl cuts the file
 * at each `---` line before go-yaml reads it, so even `%TAG` comes without the document it
 * belongs to ("did not find expected <document start>"). `head` is the text before the file's
 * first document, from `offset`.
 */
function checkKubectlDirectives(
  head: string,
  offset: number,
  file: string,
  lineCounter: LineIndex,
  findings: Finding[],
): boolean {
  let refused = false;
  DIRECTIVE_LINE.lastIndex = 0;
  for (let match = DIRECTIVE_LINE.exec(head); match !== null; match = DIRECTIVE_LINE.exec(head)) {
    const [, name = '', parameter] = match;
    const message =
      name === 'YAML'
        ? `%YAML ${parameter ?? ''} in a Kubernetes object's file: kubectl's YAML reader (go-yaml) takes %YAML 1.1 only and refuses the file (found incompatible YAML document); remove the directive`
        : name === 'TAG'
          ? `%TAG in a Kubernetes object's file: kubectl reads the text between --- lines apart, so go-yaml gets the directive without its document and refuses the file (did not find expected <document start>); remove the directive`
          : `%${name} in a Kubernetes object's file: kubectl's YAML reader (go-yaml) knows %YAML and %TAG only and refuses the file (found unknown directive name); remove the directive`;
    const { line, col } = lineCounter.linePos(offset + match.index);
    findings.push(
      createFinding({
        code: name === 'YAML' ? 'yaml-version' : 'yaml-syntax',
        message,
        file,
        line,
        col,
        pointer: '',
      }),
    );
    refused = true;
  }
  return refused;
}

/**
 * Whether kubectl reads the document `text[start, end)` as JSON, not with go-yaml: its stream
 * starts with `{` (apimachinery's GuessJSONStream) and the document is strict JSON, which its
 * JSON decoder takes (one that is not falls back to YAML).
 */
function readAsJsonByKubectl(text: string, start: number, end: number): boolean {
  if (!/^\s*\{/.test(text)) return false;
  try {
    JSON.parse(text.slice(start, end));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the double-quoted scalar `text[start, end)` has the escape `\/` (YAML 1.2's, not
 * go-yaml's): a backslash after an even run of them, then a slash.
 */
function hasSlashEscape(text: string, start: number, end: number): boolean {
  for (
    let at = text.indexOf('\\', start);
    at !== -1 && at < end - 1;
    at = text.indexOf('\\', at + 2)
  ) {
    if (text[at + 1] === '/') return true;
  }
  return false;
}

/** An anchor's name as go-yaml (after libyaml) scans one: YAML 1.2 allows more (`&a.b`). */
const GO_YAML_ANCHOR = /^[0-9A-Za-z_-]+$/;

/** How many nodes expansions may make before their share is looked at (go-yaml's 100). */
const ALIASED_NODES_ALWAYS_ALLOWED = 100;
/** How many nodes a document may have before its aliasing is bounded (go-yaml's 1,000). */
const NODES_BEFORE_ALIASING_IS_BOUNDED = 1000;
/** Between these counts of nodes, the share allowed falls from 99% to 10% (go-yaml's range). */
const ALIAS_SHARE_RANGE_LOW = 400_000;
const ALIAS_SHARE_RANGE_HIGH = 4_000_000;

/**
 * The share of `built` nodes that alias expansions may make, as go-yaml v2 allows it: 99% of a
 * small or medium document, 10% of a very large one, falling evenly between.
 */
function allowedAliasShare(built: number): number {
  if (built <= ALIAS_SHARE_RANGE_LOW) return 0.99;
  if (built >= ALIAS_SHARE_RANGE_HIGH) return 0.1;
  const along = (built - ALIAS_SHARE_RANGE_LOW) / (ALIAS_SHARE_RANGE_HIGH - ALIAS_SHARE_RANGE_LOW);
  return 0.99 - 0.89 * along;
}

/** The characters of scalars that alias expansions may make in a file, whatever its size. */
const ALIASED_CHARACTERS_ALWAYS_ALLOWED = 16 * 1024 * 1024;
/** Past that, how many times the file's own length alias expansions may make in scalars. */
const ALIASED_CHARACTERS_PER_CHARACTER = 4;

/**
 * The characters of scalars that alias expansions may make in a file of `length` characters.
 * go-yaml counts nodes only, and so does {@link allowedAliasShare}: one long anchored string
 * aliased a thousand times is a thousand nodes, and gigabytes once each copy is serialised.
 */
function allowedAliasedCharacters(length: number): number {
  return Math.max(ALIASED_CHARACTERS_ALWAYS_ALLOWED, ALIASED_CHARACTERS_PER_CHARACTER * length);
}

interface Limits {
  readonly maxAliasCount: number;
  readonly maxDepth: number;
  /** The characters of scalars alias expansions may still make in the file (all its documents). */
  readonly aliasedCharacters: { readonly allowed: number; left: number };
}

function readDocument(
  doc: Document.Parsed,
  index: number,
  file: string,
  lineCounter: LineIndex,
  source: YamlSource,
  limits: Limits,
  findings: Finding[],
): YamlDocument | undefined {
  const root = doc.contents;
  // A template's lines (`{{- if .Values.x }}`, `{% raw %}`) that broke the YAML: one finding,
  // not the errors they cause.
  // A broken document's range may end before its errors, which are its too.
  const brokenEnd = doc.errors.reduce((end, e) => Math.max(end, e.pos[1]), doc.range[2]);
  const marked =
    doc.errors.length === 0
      ? undefined
      : templateInBrokenDocument(
          source.text,
          doc.range[0],
          brokenEnd,
          doc.errors.map((e) => e.pos[0]),
        );
  // Not a template when what broke it is only what kubectl reads (an under-indented line of a
  // quoted value), whose error may land on a line of the value holding Argo's `{{...}}`.
  const template =
    marked !== undefined && !parsesRelaxed(source.text.slice(doc.range[0], brokenEnd))
      ? marked
      : undefined;
  if (template !== undefined) {
    findings.push(templateFinding(template, file, lineCounter));
    if (root === null || isEmptyScalar(root)) return undefined;
    return new YamlDocument(
      file,
      index,
      lineCounter.linePos(nodeStart(root)),
      undefined,
      true,
      source,
    );
  }
  if (root === null || isEmptyScalar(root)) {
    pushYamlErrors(doc.errors, file, lineCounter, findings, source.text);
    return undefined;
  }
  const before = findings.length;
  // go-yaml's `\'` in a Kubernetes object, read as kubectl reads it (see go-yaml-escapes.ts).
  const quoteEscapes = isKubernetesRoot(root)
    ? goYamlQuoteEscapes(doc.errors, source.text)
    : new Set<number>();
  const errors = doc.errors.filter((e) => !quoteEscapes.has(e.pos[0]));
  if (quoteEscapes.size > 0) findings.push(quoteEscapeWarning(quoteEscapes, file, lineCounter));
  pushYamlErrors(errors, file, lineCounter, findings, source.text);
  for (const warning of doc.warnings) {
    // Unresolved tags are reported while building, where their pointer is known.
    if (warning.code !== 'TAG_RESOLVE_FAILED') {
      findings.push(fromYamlError(warning, file, lineCounter));
    }
  }
  const builder = new DataBuilder(
    file,
    lineCounter,
    limits,
    findings,
    isKubernetesRoot(root),
    { text: source.text, sorted: [...quoteEscapes].sort((a, b) => a - b) },
    !readAsJsonByKubectl(source.text, root.range[0], root.range[1]),
  );
  let value: unknown;
  if (errors.length === 0) {
    try {
      value = builder.build(root, 0);
    } catch (error) {
      if (!(error instanceof AbortBuild)) throw error;
      value = undefined;
    }
  }
  const [expression, ...moreExpressions] = builder.templates;
  if (expression !== undefined) {
    // A template, not a manifest: one finding, and no document to check (its every field
    // would be a finding of its own).
    const range = expression.range ?? [0, 0];
    const written = source.text.slice(range[0], range[1]).trim();
    findings.push(
      templateFinding(
        { offset: range[0], written, more: moreExpressions.length },
        file,
        lineCounter,
      ),
    );
    value = undefined;
  }
  const hasErrors = findings.slice(before).some(isError);
  const position = lineCounter.linePos(nodeStart(root));
  return new YamlDocument(file, index, position, value, hasErrors, source);
}

/**
 * Whether a node is a Go template expression as YAML reads one: `{{ .x }}` is a flow mapping
 * whose one key is a flow mapping, with no value (data never needs such a key).
 */
function isTemplateExpression(node: YamlNode): boolean {
  if (!isMap(node) || !node.flow || node.items.length !== 1) return false;
  const [pair] = node.items;
  return pair !== undefined && isMap(pair.key) && pair.key.flow === true && pair.value === null;
}

/**
 * Whether a document's root has an `apiVersion` and a `kind`, as a Kubernetes object has: its
 * plain scalars are then read as kubectl reads them (see `DataBuilder`'s `kubectlScalars`).
 */
function isKubernetesRoot(root: YamlNode): boolean {
  if (!isMap(root)) return false;
  let apiVersion = false;
  let kind = false;
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    const isString = isScalar(pair.value) && typeof pair.value.value === 'string';
    if (key === 'apiVersion') apiVersion = isString;
    else if (key === 'kind') kind = isString;
  }
  return apiVersion && kind;
}

function isError(f: Finding): boolean {
  return f.severity === 'error';
}

/** A document with nothing in it (`---` alone, or only comments). */
function isEmptyScalar(node: YamlNode): boolean {
  return (
    isScalar(node) &&
    node.value === null &&
    node.source === '' &&
    node.tag === undefined &&
    node.anchor === undefined
  );
}

/** The one warning of a document whose double-quoted scalars hold go-yaml's `\'`. */
function quoteEscapeWarning(
  escapes: ReadonlySet<number>,
  file: string,
  lineCounter: LineIndex,
): Finding {
  let first = Infinity;
  for (const at of escapes) first = Math.min(first, at);
  const { line, col } = lineCounter.linePos(first);
  const more = escapes.size === 1 ? '' : ` (and ${escapes.size - 1} more in this document)`;
  return createFinding({
    code: 'yaml-warning',
    message: `\\' is no YAML 1.2 escape: kubectl (go-yaml) reads it as ', YAML 1.2 refuses it; write ' alone in double quotes${more}`,
    file,
    line,
    col,
    pointer: '',
    rule: 'BAD_DQ_ESCAPE',
  });
}

/** A document's `template-expression` finding, at its first expression. */
function templateFinding(template: TemplateMarker, file: string, lineCounter: LineIndex): Finding {
  const { line, col } = lineCounter.linePos(template.offset);
  return createFinding({
    code: 'template-expression',
    message: templateExpressionMessage(shorten(template.written), template.more),
    file,
    line,
    col,
    pointer: '',
  });
}

/**
 * A document's YAML errors, the first {@link MAX_FINDINGS_PER_DOCUMENT} of them and an "and N
 * more" (an error early in a document makes one at every line after it).
 */
function pushYamlErrors(
  errors: readonly YAMLError[],
  file: string,
  lineCounter: LineIndex,
  findings: Finding[],
  text: string,
): void {
  for (const error of errors.slice(0, MAX_FINDINGS_PER_DOCUMENT)) {
    findings.push(fromYamlError(error, file, lineCounter, text));
  }
  const more = errors.length - MAX_FINDINGS_PER_DOCUMENT;
  if (more <= 0) return;
  const last = findings[findings.length - 1] as Finding;
  findings.push(
    createFinding({
      code: 'too-many-findings',
      message: `and ${more} more YAML error${more === 1 ? '' : 's'} in this document`,
      file,
      line: last.line,
      col: last.col,
      pointer: '',
    }),
  );
}

function fromYamlError(
  error: { code: string; message: string; pos: [number, number] },
  file: string,
  lineCounter: LineIndex,
  text?: string,
): Finding {
  let offset = error.pos[0];
  // yaml places a misindented line's error at its indentation: the key it misplaces is where
  // the line's content starts.
  if (error.code === 'BAD_INDENT' && text !== undefined) {
    while (text.charCodeAt(offset) === 32) offset++;
  }
  const unclosed =
    text === undefined ? undefined : unclosedFlowOpening(error.message, text, offset);
  if (unclosed !== undefined) {
    // Placed where the collection opens, which is what to fix: yaml notices only where it
    // gives up (the next key, the next document).
    const noticed = lineCounter.linePos(offset);
    const { line, col } = lineCounter.linePos(unclosed.offset);
    return createFinding({
      code: 'yaml-syntax',
      message: `this ${unclosed.open} is never closed: yaml reads on to line ${noticed.line}, column ${noticed.col} without a ${unclosed.close} (a flow ${unclosed.open === '[' ? 'sequence' : 'map'} that goes on over lines is indented more than its key)`,
      file,
      line,
      col,
      pointer: '',
      rule: error.code,
    });
  }
  const { line, col } = lineCounter.linePos(offset);
  const hint = INDENTATION_ERRORS.has(error.code)
    ? ' (is a line indented more or less than the keys next to it?)'
    : '';
  return createFinding({
    code: error instanceof YAMLWarning ? 'yaml-warning' : 'yaml-syntax',
    // yaml's messages quote the source (a tag, a directive, a block scalar header) uncut.
    message: `${shortenMessage(error.message, MAX_MESSAGE_LENGTH - hint.length)}${hint}`,
    file,
    line,
    col,
    pointer: '',
    rule: error.code,
  });
}

/**
 * For yaml's "must ... end with a ]" (or `}`): the `[` (or `{`) before `offset` that nothing
 * closes, found by walking back over the brackets (those in quoted scalars too: a rare miss,
 * when it leaves yaml's own place). `undefined` when there is none.
 */
function unclosedFlowOpening(
  message: string,
  text: string,
  offset: number,
): { offset: number; open: '[' | '{'; close: ']' | '}' } | undefined {
  const close = /end with an? ([\]}])/.exec(message)?.[1] as ']' | '}' | undefined;
  if (close === undefined) return undefined;
  const open = close === ']' ? '[' : '{';
  // Within the document: not past a line that starts a new one.
  let depth = 0;
  for (let i = Math.min(offset, text.length) - 1; i >= 0; i--) {
    const char = text[i];
    if (char === '\n' && text.startsWith('---', i + 1)) return undefined;
    if (char === close) depth++;
    else if (char === open) {
      if (depth === 0) return { offset: i, open, close };
      depth--;
    }
  }
  return undefined;
}

/** Every line of a text, by its line feeds, before parsing: findings are made while it goes on. */
function countLines(text: string, origin: Position | undefined): LineIndex {
  return new LineIndex(text, origin);
}

/** A byte order mark at the start of the stream, before a `---`, `...` or directive, or after `---`. */
const DOCUMENT_BOM = /(^|\n(?=\ufeff(?:---|\.\.\.|%))|\n---[ \t]*\n)\ufeff/g;

/** yaml's codes for what is most often a key indented too far (or not far enough). */
const INDENTATION_ERRORS = new Set([
  'BAD_INDENT',
  'BLOCK_AS_IMPLICIT_KEY',
  'MULTILINE_IMPLICIT_KEY',
  'UNEXPECTED_TOKEN',
]);

/** Thrown inside {@link DataBuilder} to give up on a document (after reporting why). */
class AbortBuild extends Error {}

/**
 * Turns one document's syntax tree into plain data in a single pass, reporting what cannot be
 * data. Anchors are tracked as the walk meets them, because yaml's own `Alias.resolve` searches
 * the whole document on every call.
 */
class DataBuilder {
  readonly #anchors = new Map<string, YamlNode>();
  /** Anchored nodes being built: an alias to one of them would expand forever. */
  readonly #building = new Set<YamlNode>();
  readonly #path: (string | number)[] = [];
  /** Go template expressions met (`{{ .fluxns }}`, which YAML reads as a nested flow mapping). */
  readonly templates: YamlNode[] = [];
  #expansions = 0;
  /** The nodes built, and those of them built inside an alias's expansion (go-yaml's counts). */
  /** The document node counts, as go-yaml counts it. */
  #built = 1;
  #builtInAliases = 0;
  /** Inside an alias expansion, anchors are not defined again (they were, where they stand). */
  #aliasDepth = 0;
  /** The alias written in the document whose expansion is under way. */
  #outerAlias: { node: Alias; pathLength: number } | undefined;

  constructor(
    readonly file: string,
    readonly lineCounter: LineIndex,
    readonly limits: Limits,
    readonly findings: Finding[],
    /**
     * The document is a Kubernetes object: its untagged plain scalars that YAML 1.1 reads
     * otherwise than YAML 1.2 (`0755`, `yes`, `off`) are read as kubectl reads them (go-yaml
     * v2: the octal 493, true, false), so that a check says what the API server would, and
     * still warned about (a failure under `--strict`). cosi's own documents are YAML 1.2.
     */
    readonly kubectlScalars = false,
    /** go-yaml's `\'` escapes accepted in the document's text, by their offsets (ascending). */
    readonly quoteEscapes: { readonly text: string; readonly sorted: readonly number[] } = {
      text: '',
      sorted: [],
    },
    /**
     * kubectl reads the document with go-yaml, not as JSON (see {@link readAsJsonByKubectl}):
     * what go-yaml's scanner refuses and JSON takes (`"\/"`) is then refused.
     */
    readonly goYamlScanner = true,
  ) {}

  build(node: YamlNode | null, depth: number): unknown {
    if (node === null) return null;
    this.#count(node);
    if (depth > this.limits.maxDepth) {
      this.#report(
        'nesting-too-deep',
        node,
        `nested more than ${this.limits.maxDepth} levels`,
        true,
      );
      throw new AbortBuild();
    }
    if (isAlias(node)) return this.#expand(node, depth);
    const anchored = node.anchor !== undefined;
    if (anchored) {
      if (this.kubectlScalars && !GO_YAML_ANCHOR.test(node.anchor as string)) {
        this.#report(
          'yaml-syntax',
          node,
          `the anchor &${shorten(node.anchor as string)}: kubectl's YAML reader (go-yaml) takes anchor names of letters, digits, _ and - only, and refuses the file (did not find expected alphabetic or numeric character); rename it`,
        );
      }
      if (this.#aliasDepth === 0) this.#anchors.set(node.anchor as string, node);
      this.#building.add(node);
    }
    const flow = (isMap(node) || isSeq(node)) && node.flow === true;
    if (flow) this.#flowDepth++;
    try {
      if (isScalar(node)) return this.#scalar(node);
      if (isTemplateExpression(node)) {
        // `{{ .Values.port }}`: a template's, not data (said once for the document).
        if (this.#aliasDepth === 0) this.templates.push(node);
        return null;
      }
      if (isMap(node)) {
        this.#checkCollectionTag(node, 'map');
        const out: Record<string, unknown> = {};
        /** The values of merge keys (`<<: *defaults`), merged once the keys written are in. */
        const merges: { readonly key: YamlNode; readonly value: YamlNode | null }[] = [];
        for (const pair of node.items) {
          if (isScalar(pair.key) && pair.key.type === 'PLAIN' && pair.key.value === '<<') {
            merges.push({ key: pair.key, value: pair.value as YamlNode | null });
            continue;
          }
          if (pair.key !== null) this.#count(pair.key as YamlNode);
          const key = this.#key(pair.key as YamlNode | null, node);
          if (key === undefined) continue;
          if (Object.prototype.hasOwnProperty.call(out, key)) {
            this.#path.push(key);
            this.#report(
              'duplicate-key',
              pair.key as YamlNode,
              `duplicate key ${JSON.stringify(shorten(key))}`,
            );
            this.#path.pop();
            continue;
          }
          this.#path.push(key);
          // An own property even for `__proto__`, never the object's prototype.
          defineOwn(out, key, this.build(pair.value as YamlNode | null, depth + 1));
          this.#path.pop();
        }
        for (const merge of merges) this.#merge(merge.key, merge.value, out, depth);
        return out;
      }
      if (isSeq(node)) {
        this.#checkCollectionTag(node, 'seq');
        const out: unknown[] = [];
        for (let i = 0; i < node.items.length; i++) {
          this.#path.push(i);
          const item: unknown = node.items[i];
          const text = this.kubectlScalars ? this.#colonEndedScalar(item) : undefined;
          out.push(text ?? this.build(item as YamlNode | null, depth + 1));
          this.#path.pop();
        }
        return out;
      }
      return null;
    } finally {
      if (flow) this.#flowDepth--;
      if (anchored) this.#building.delete(node);
    }
  }

  /** How many flow collections (`[...]`, `{...}`) the node being built is in. */
  #flowDepth = 0;

  /**
   * Reports, in a Kubernetes object, a scalar YAML 1.2 reads and kubectl's go-yaml refuses: a
   * plain one inside `[...]` or `{...}` that holds `?` (go-yaml ends it there and takes `?` for
   * a key: `[--url=/x?y]` is "did not find expected ',' or ']'") or starts with `:` (a value
   * indicator there: `[--addr, :8080]`), or a double-quoted one with the
   * escape `\/`, which go-yaml does not have ("found unknown escape character").
   */
  #checkGoYamlScalar(node: Scalar): void {
    if (!this.kubectlScalars || !this.goYamlScanner) return;
    const source = String(node.source);
    if (node.type === 'PLAIN' && this.#flowDepth > 0 && source.startsWith(':')) {
      this.#report(
        'yaml-syntax',
        node,
        `${JSON.stringify(shorten(source))}: inside [ ] or { }, kubectl's YAML reader (go-yaml) takes a : that starts a plain value for a key's, and refuses the file (did not find expected node content); quote it`,
      );
    } else if (node.type === 'PLAIN' && this.#flowDepth > 0 && source.includes('?')) {
      this.#report(
        'yaml-syntax',
        node,
        `${JSON.stringify(shorten(source))}: inside [ ] or { }, kubectl's YAML reader (go-yaml) ends a plain value at ? and takes it for a key, and refuses the file (did not find expected ',' or ']'); quote it`,
      );
    } else if (
      node.type === 'QUOTE_DOUBLE' &&
      node.range &&
      hasSlashEscape(this.quoteEscapes.text, node.range[0], node.range[1])
    ) {
      this.#report(
        'yaml-syntax',
        node,
        "the escape \\/ in a double-quoted string: kubectl's YAML reader (go-yaml) does not have it, and refuses the file (found unknown escape character); write / alone",
      );
    }
  }

  /**
   * A merge key's value merged into `out` as kubectl (go-yaml) and YAML 1.1's merge type do: a
   * mapping, or a list of them (an earlier one first), adds the keys `out` does not have; the
   * keys written beside the merge key win. Anything else there is a `merge-key` finding.
   */
  #merge(key: YamlNode, value: YamlNode | null, out: Record<string, unknown>, depth: number): void {
    this.#path.push('<<');
    try {
      const sources = isSeq(value) ? (value.items as (YamlNode | null)[]) : [value];
      for (const source of sources) {
        const built = this.build(source, depth + 1);
        if (typeof built !== 'object' || built === null || Array.isArray(built)) {
          this.#report(
            'merge-key',
            source ?? key,
            'a merge key (<<) takes a mapping, an alias of one or a list of them; quote "<<" for a key of that name',
          );
          continue;
        }
        for (const [k, v] of Object.entries(built)) {
          if (!Object.prototype.hasOwnProperty.call(out, k)) defineOwn(out, k, v);
        }
      }
    } finally {
      this.#path.pop();
    }
  }

  /** One more node built (a mapping's key too, as go-yaml decodes it), and the bound checked. */
  #count(node: YamlNode): void {
    this.#built++;
    if (this.#aliasDepth === 0) return;
    if (isScalar(node) && typeof node.value === 'string') this.#countAliasedScalar(node.value);
    if (++this.#builtInAliases > ALIASED_NODES_ALWAYS_ALLOWED) this.#checkAliasing(node);
  }

  /**
   * A string an expansion made, against the file's bound on the characters expansions make
   * ({@link allowedAliasedCharacters}). Refused at the alias written in the document, before
   * the value is built any further.
   */
  #countAliasedScalar(value: string): void {
    const budget = this.limits.aliasedCharacters;
    budget.left -= value.length;
    if (budget.left >= 0) return;
    if (this.#outerAlias === undefined) return;
    // Inside an expansion, `#report` places it at the alias written in the document.
    this.#report(
      'alias-bomb',
      this.#outerAlias.node,
      `expanding aliases makes more than ${budget.allowed} characters of strings in this file (${ALIASED_CHARACTERS_PER_CHARACTER} times its length, at least ${ALIASED_CHARACTERS_ALWAYS_ALLOWED}): an alias bomb? (cosi's own bound: kubectl counts nodes only)`,
      true,
    );
    throw new AbortBuild();
  }

  /**
   * go-yaml's bound on aliasing (kubectl's): past 100 nodes from expansions and 1,000 in all,
   * the share of nodes that expansions made may not pass {@link allowedAliasShare}. A document
   * it refuses is an `alias-bomb`; what it takes (a manifest reusing an anchor hundreds of
   * times) is read.
   */
  #checkAliasing(node: YamlNode): void {
    if (this.#built <= NODES_BEFORE_ALIASING_IS_BOUNDED) return;
    if (this.#builtInAliases / this.#built <= allowedAliasShare(this.#built)) return;
    this.#report(
      'alias-bomb',
      node,
      `expanding aliases makes ${this.#builtInAliases} of the ${this.#built} nodes read so far: more than kubectl (go-yaml) allows, which refuses it as "excessive aliasing" (an alias bomb?)`,
      true,
    );
    throw new AbortBuild();
  }

  #expand(alias: Alias, depth: number): unknown {
    const target = this.#anchors.get(alias.source);
    if (target === undefined) {
      this.#report(
        'unknown-anchor',
        alias,
        `the alias *${shorten(alias.source)} has no anchor before it`,
      );
      return null;
    }
    if (this.#building.has(target)) {
      this.#report(
        'recursive-alias',
        alias,
        `the alias *${shorten(alias.source)} refers to a node that contains it`,
        true,
      );
      throw new AbortBuild();
    }
    if (++this.#expansions > this.limits.maxAliasCount) {
      this.#report(
        'alias-bomb',
        alias,
        `expanding aliases exceeds the limit of ${this.limits.maxAliasCount} (an alias bomb?)`,
        true,
      );
      throw new AbortBuild();
    }
    if (this.#aliasDepth === 0) this.#outerAlias = { node: alias, pathLength: this.#path.length };
    this.#aliasDepth++;
    try {
      return this.build(target, depth);
    } finally {
      this.#aliasDepth--;
    }
  }

  #scalar(node: Scalar): unknown {
    this.#checkGoYamlScalar(node);
    let value = node.value;
    if (node.type === 'QUOTE_DOUBLE' && this.quoteEscapes.sorted.length > 0 && node.range) {
      const [start, end] = node.range;
      if (hasEscapeIn(this.quoteEscapes.sorted, start, end)) {
        value = decodeWithQuoteEscapes(
          this.quoteEscapes.text,
          start,
          end,
          this.quoteEscapes.sorted,
        );
      }
    }
    const tag = node.tag;
    // `!!float 5`: yaml's core schema leaves an integer literal under a float tag a string.
    if (tag === `${TAG_PREFIX}float` && typeof value === 'string' && INTEGER_SYNTAX.test(value)) {
      value = Number(value);
    }
    if (typeof value === 'number') this.#checkNumber(node, value);
    const source = String(node.source);
    if (
      typeof value === 'number' &&
      node.type === 'PLAIN' &&
      tag === undefined &&
      YAML11_OCTAL.test(source)
    ) {
      const digits = source.replace(/^[-+]?0+/, '') || '0';
      if (this.kubectlScalars) {
        const octal = (source.startsWith('-') ? -1 : 1) * parseInt(digits, 8);
        this.#report(
          'yaml11-octal',
          node,
          `${shorten(source)} is the octal ${octal} as kubectl reads it (YAML 1.1), but the decimal ${shorten(String(value))} in YAML 1.2: write 0o${shorten(digits)} (or ${octal}) to mean the same in both`,
        );
        value = octal;
      } else {
        this.#report(
          'yaml11-octal',
          node,
          `${shorten(source)} is the decimal ${shorten(String(value))} in YAML 1.2 but an octal in YAML 1.1: write 0o${shorten(digits)} for an octal, or quote it for a string`,
        );
      }
    }
    if (typeof value === 'string' && node.type === 'PLAIN' && tag === undefined) {
      const number = goYamlNumber(value);
      if (number !== undefined) {
        const shown = shorten(value);
        if (this.kubectlScalars) {
          this.#report(
            'yaml11-number',
            node,
            `${shown} is the number ${shorten(String(number))} as kubectl reads it (YAML 1.1), but the string ${JSON.stringify(shown)} in YAML 1.2: write ${shorten(String(number))}, or quote it for the string`,
          );
          return number;
        }
        this.#report(
          'yaml11-number',
          node,
          `${shown} is the string ${JSON.stringify(shown)} in YAML 1.2 but the number ${shorten(String(number))} in YAML 1.1: quote it, or write ${shorten(String(number))}`,
        );
      }
    }
    if (
      this.kubectlScalars &&
      typeof value === 'string' &&
      (tag === `${TAG_PREFIX}binary` || tag === `${TAG_PREFIX}timestamp`)
    ) {
      return this.#goYamlTagged(node, tag, value);
    }
    if (tag !== undefined && !scalarTagResolved(tag, value)) {
      this.#report(
        'unknown-tag',
        node,
        `the tag ${shorten(tag)} is not a YAML 1.2 core tag for this value`,
      );
    }
    if (
      typeof value === 'string' &&
      value.length <= 5 &&
      node.type === 'PLAIN' &&
      tag === undefined &&
      YAML11_BOOLEANS.has(value.toLowerCase())
    ) {
      const boolean = this.kubectlScalars ? GO_YAML_BOOLEANS.get(value) : undefined;
      if (boolean === undefined) {
        this.#report(
          'yaml11-boolean',
          node,
          `${value} is the string ${JSON.stringify(value)} in YAML 1.2 but a boolean in YAML 1.1: quote it, or write true or false`,
        );
      } else {
        this.#report(
          'yaml11-boolean',
          node,
          `${value} is the boolean ${boolean} as kubectl reads it (YAML 1.1), but the string ${JSON.stringify(value)} in YAML 1.2: write ${boolean}, or quote it for the string`,
        );
        return boolean;
      }
    }
    return value;
  }

  /**
   * A `!!binary` or `!!timestamp` scalar in a Kubernetes object, as kubectl's go-yaml reads it: the
   * string of the bytes base64 gives, the timestamp as written; one go-yaml refuses is reported
   * (kubectl refuses the file) and read as the text written.
   */
  #goYamlTagged(node: Scalar, tag: string, value: string): string {
    const shown = JSON.stringify(shorten(value));
    if (tag === `${TAG_PREFIX}binary`) {
      const decoded = goYamlBinary(value);
      if (decoded !== undefined) return decoded;
      this.#report(
        'yaml-syntax',
        node,
        `!!binary ${shown} is no base64: kubectl's YAML reader (go-yaml) refuses the file (!!binary value contains invalid base64 data)`,
      );
    } else if (!isGoYamlTimestamp(value)) {
      this.#report(
        'yaml-syntax',
        node,
        `!!timestamp ${shown} is no timestamp kubectl's YAML reader (go-yaml) reads (2001-12-14, 2001-12-14T21:59:43.1Z, 2001-12-14 21:59:43): it refuses the file (cannot decode it as a !!timestamp)`,
      );
    }
    return value;
  }

  /** Refuses numbers that JavaScript cannot hold as written: the data would change. */
  #checkNumber(node: Scalar, value: number): void {
    const source = String(node.source);
    if (!Number.isFinite(value) && !Number.isNaN(value) && !INFINITY_SYNTAX.test(source)) {
      this.#report(
        'number-out-of-range',
        node,
        `${shorten(source)} is too large for a number (it would become infinity): quote it for a string`,
      );
    } else if (
      Number.isInteger(value) &&
      !Number.isSafeInteger(value) &&
      INTEGER_SYNTAX.test(source) &&
      !this.#atSchemaLimit()
    ) {
      this.#report(
        'number-out-of-range',
        node,
        `the integer ${shorten(source)} is beyond 2^53 and would lose precision: quote it for a string`,
      );
    }
  }

  /** True at a limit keyword ({@link SCHEMA_LIMITS}) inside a CRD's `openAPIV3Schema`. */
  #atSchemaLimit(): boolean {
    const key = this.#path.at(-1);
    return (
      typeof key === 'string' && SCHEMA_LIMITS.has(key) && this.#path.includes('openAPIV3Schema')
    );
  }

  #checkCollectionTag(node: YamlNode, kind: 'map' | 'seq'): void {
    if (node.tag !== undefined && node.tag !== TAG_PREFIX + kind && node.tag !== '!') {
      this.#report('unknown-tag', node, `the tag ${shorten(node.tag)} is not a YAML 1.2 core tag`);
    }
  }

  /**
   * A mapping key as JavaScript sees it, or `undefined` (reported) when it cannot be one; in a
   * Kubernetes object, as kubectl sends it (`go-yaml-keys.ts`), with a warning where YAML 1.2
   * reads it otherwise.
   */
  #key(node: YamlNode | null, at: YamlNode): string | undefined {
    if (node === null || (isScalar(node) && node.value === null && node.source === '')) {
      if (!this.kubectlScalars) return '';
      this.#report(
        'complex-key',
        node ?? at,
        'a mapping key is missing: kubectl refuses the document (go-yaml: unsupported map key of type: <nil>)',
      );
      return undefined;
    }
    if (node.anchor !== undefined && this.#aliasDepth === 0) this.#anchors.set(node.anchor, node);
    const scalar = isAlias(node) ? this.#anchors.get(node.source) : node;
    if (scalar !== undefined && isScalar(scalar)) {
      const value = scalar.value;
      if (scalar === node) this.#checkGoYamlScalar(node);
      if (scalar === node && node.tag !== undefined && !scalarTagResolved(node.tag, value)) {
        this.#report(
          'unknown-tag',
          node,
          `the tag ${node.tag} is not a YAML 1.2 core tag for this key`,
        );
      }
      if (this.kubectlScalars && scalar.type === 'PLAIN' && scalar.tag === undefined) {
        const kubectl = kubectlKey(String(scalar.source), value);
        if (kubectl !== undefined) return this.#kubectlKey(node, String(scalar.source), kubectl);
      }
      if (typeof value === 'string') return value;
      if (value === null) return '';
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    }
    this.#report('complex-key', node, 'a mapping key must be a string, number, boolean or null');
    return undefined;
  }

  /** Reports a plain key kubectl reads otherwise than YAML 1.2, and returns kubectl's key. */
  #kubectlKey(node: YamlNode, source: string, kubectl: KubectlKey): string | undefined {
    const written = shorten(source);
    if (kubectl.kind === 'null') {
      this.#report(
        'complex-key',
        node,
        `the key ${written} is null as kubectl reads it, which it refuses (go-yaml: unsupported map key of type: <nil>): quote it for the key ${JSON.stringify(written)}`,
      );
      return undefined;
    }
    const sent = JSON.stringify(kubectl.key);
    const message =
      kubectl.kind === 'string'
        ? `the key ${written} is too large for a number: kubectl keeps the string ${sent} (YAML 1.1), where YAML 1.2 reads infinity: quote it`
        : `the key ${written} is the ${kubectl.kind} ${kubectl.key} as kubectl reads it (YAML 1.1), so the API server gets the key ${sent}: quote it for the key ${JSON.stringify(written)}`;
    this.#path.push(kubectl.key);
    this.#report(
      kubectl.kind === 'boolean'
        ? 'yaml11-boolean'
        : kubectl.kind === 'octal'
          ? 'yaml11-octal'
          : 'yaml11-number',
      node,
      message,
    );
    this.#path.pop();
    return kubectl.key;
  }

  /**
   * A flow sequence's plain item that ends in `:` right before a `,` or `]` (`[2001:db8::]`, an
   * IPv6 address): YAML 1.2 reads a key with no value (`{"2001:db8:": null}`), kubectl (go-yaml
   * v2, where a `:` ends a plain scalar only before a space) the string `2001:db8::`. In a
   * Kubernetes object it is read as kubectl reads it, and said (`yaml-warning`).
   */
  #colonEndedScalar(item: unknown): string | undefined {
    // yaml holds the implicit pair as a one-pair flow mapping without braces.
    if (!isMap(item) || !item.flow || item.items.length !== 1) return undefined;
    const pair = item.items[0];
    if (pair === undefined || !isScalar(pair.key) || !isEmptyScalar(pair.value as YamlNode)) {
      return undefined;
    }
    const key = pair.key;
    if (key.type !== 'PLAIN' || key.range === undefined || key.range === null) return undefined;
    const source = this.quoteEscapes.text;
    if (source[key.range[0] - 1] === '{' || source[item.range?.[0] ?? 0] === '{') return undefined;
    const colon = key.range[1];
    if (source[colon] !== ':' || !',]'.includes(source[colon + 1] ?? '-')) return undefined;
    this.#count(item);
    const text = `${source.slice(key.range[0], colon)}:`;
    this.#report(
      'yaml-warning',
      key as YamlNode,
      `${JSON.stringify(shorten(text))} ends in ":" inside a flow list: kubectl (go-yaml) reads the string ${JSON.stringify(shorten(text))}, YAML 1.2 a key with no value; quote it`,
    );
    return text;
  }

  /**
   * Reports a problem at the current path. Inside an alias expansion, problems of the expanded
   * nodes themselves were already reported where the anchor stands, so only the expansion's own
   * problems (`always`) are, and at the alias written in the document, where a reader can act.
   */
  #report(code: FindingCode, node: YamlNode, message: string, always = false): void {
    let at = node;
    let path = this.#path;
    if (this.#aliasDepth > 0) {
      if (!always || this.#outerAlias === undefined) return;
      at = this.#outerAlias.node;
      path = path.slice(0, this.#outerAlias.pathLength);
    }
    const { line, col } = this.lineCounter.linePos(nodeStart(at));
    this.findings.push(
      createFinding({ code, message, file: this.file, line, col, pointer: jsonPointer(path) }),
    );
  }
}

/** Whether yaml resolved an explicitly tagged scalar (it keeps the source string when not). */
function scalarTagResolved(tag: string, value: unknown): boolean {
  switch (tag) {
    case '!':
    case `${TAG_PREFIX}str`:
      return true;
    case `${TAG_PREFIX}int`:
      return typeof value === 'number';
    case `${TAG_PREFIX}float`:
      return typeof value === 'number' || (typeof value === 'string' && INTEGER_SYNTAX.test(value));
    case `${TAG_PREFIX}bool`:
      return typeof value === 'boolean';
    case `${TAG_PREFIX}null`:
      return value === null;
    default:
      return false;
  }
}
