/**
 * One document of a stream read: its findings (templates, yaml's errors, go-yaml's escapes) and
 * its data, built by {@link DataBuilder}.
 */

import { LineCounter, type Document } from 'yaml';
import { createFinding, type Finding } from '../finding.js';
import type { LineIndex } from '../line-index.js';
import { relaxIndentation } from '../relaxed-indentation.js';
import { shorten } from '../shorten.js';
import { parseYamlStream, type YamlSource } from '../yaml-source.js';
import { nodeStart } from '../yaml-node-starts.js';
import { YamlDocument } from '../yaml-document.js';
import { goYamlQuoteEscapes } from '../go-yaml-escapes.js';
import {
  templateExpressionMessage,
  templateInBrokenDocument,
  type TemplateMarker,
} from '../template-markers.js';
import type { Limits } from './yaml-build-limits.js';
import { AbortBuild, DataBuilder } from './yaml-data-builder.js';
import { isEmptyScalar, isKubernetesRoot } from './yaml-node-kinds.js';
import { fromYamlError, pushYamlErrors } from './yaml-error-findings.js';

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

export function readDocument(
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

function isError(f: Finding): boolean {
  return f.severity === 'error';
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
