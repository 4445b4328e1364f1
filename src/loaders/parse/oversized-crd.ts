/**
 * The scan that refuses a CustomResourceDefinition over the API server's request limit before
 * its text is parsed: the parse is what would cost seconds and gigabytes.
 */

import { createFinding, type Finding } from '../finding.js';
import type { LineIndex } from '../line-index.js';
import { MAX_CRD_BYTES } from '../request-limits.js';

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
export function oversizedCrd(
  text: string,
  file: string,
  lineCounter: LineIndex,
): Finding | undefined {
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

/** The bytes of `chunk` without the indentation of its lines and its comment lines. */
function compactBytes(chunk: string): number {
  let bytes = 0;
  for (const line of chunk.split('\n')) {
    const content = line.trimStart();
    if (!content.startsWith('#')) bytes += Buffer.byteLength(content);
  }
  return bytes;
}
