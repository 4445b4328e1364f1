import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';
import { withholdSecretLines } from './secret-excerpt.js';

/** What names a document's type: `metadata.type` (cosi's shape), or `apiVersion` and `kind`. */
export interface DocumentHeader {
  readonly type?: string;
  readonly apiVersion?: string;
  readonly kind?: string;
}

/** A few lines of a file around a line (a Secret's values withheld). */
export interface SourceExcerpt {
  /** The number of the first line shown (1-based). */
  readonly first: number;
  readonly lines: readonly string[];
}

/** Lines shown before and after the line a finding points at. */
const CONTEXT = 2;
/** A line longer than this is cut: a report shows where, not the whole of a minified line. */
const MAX_LINE = 200;
/** Files larger than this are not read again for excerpts. */
const MAX_FILE = 8 * 1024 * 1024;

/**
 * Reads excerpts of the files findings point at, each file once (its lines split once).
 * A file that cannot be read (gone, a directory, the standard input) gives no excerpt. A
 * Secret's values are withheld, and all the content of the documents `isSensitive` says are of a
 * sensitive type (read whether they loaded or not: a finding may be what stopped one).
 */
export function createExcerptReader(
  cwd: string,
  isSensitive?: (header: DocumentHeader) => boolean,
): (file: string, line: number) => SourceExcerpt | undefined {
  const files = new Map<string, SourceFile | undefined>();
  const fileOf = (file: string): SourceFile | undefined => {
    if (!files.has(file)) files.set(file, readSource(path.resolve(cwd, file), isSensitive));
    return files.get(file);
  };
  return (file, line) => {
    if (file === '' || file === '<stdin>' || line < 1) return undefined;
    const source = fileOf(file);
    if (!source || line > source.lines.length) return undefined;
    const { lines, sensitiveAt } = source;
    const first = Math.max(1, line - CONTEXT);
    const last = Math.min(lines.length, line + CONTEXT);
    return {
      first,
      lines: withholdSecretLines(lines, first, last, sensitiveAt).map((l) =>
        l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l,
      ),
    };
  };
}

/** A file's lines, and whether a line (0-based) is in a document of a sensitive type. */
interface SourceFile {
  readonly lines: readonly string[];
  readonly sensitiveAt?: (index: number) => boolean;
}

/**
 * The bytes of `file` when it is a regular file, else `undefined`. Opened without blocking and
 * looked at first: a named pipe checked (`cosi check pipe.yaml --report r.html`) was read once by
 * the check, and opening it again for its excerpts waited for ever for a writer.
 */
function readRegularFile(file: string): Buffer | undefined {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}

function readSource(
  file: string,
  isSensitive: ((header: DocumentHeader) => boolean) | undefined,
): SourceFile | undefined {
  let text: string;
  try {
    const bytes = readRegularFile(file);
    if (bytes === undefined || bytes.length > MAX_FILE) return undefined;
    text = bytes.toString('utf8');
  } catch {
    return undefined;
  }
  const lines = text.split(/\r?\n/);
  const ranges = isSensitive ? sensitiveRanges(text, isSensitive) : [];
  if (ranges.length === 0) return { lines };
  return {
    lines,
    sensitiveAt: (index) => ranges.some(([start, end]) => index >= start && index <= end),
  };
}

/**
 * The line ranges (0-based, inclusive) of the documents of a sensitive type. The YAML parser
 * reads on past errors, so a document the load refused (the one a finding is about) still has
 * its header and its range.
 */
function sensitiveRanges(
  text: string,
  isSensitive: (header: DocumentHeader) => boolean,
): [number, number][] {
  const lineCounter = new LineCounter();
  const ranges: [number, number][] = [];
  try {
    const documents = parseAllDocuments(text, {
      lineCounter,
      logLevel: 'silent',
      uniqueKeys: false,
    });
    for (const doc of 'empty' in documents ? [] : documents) {
      const header: DocumentHeader = {
        ...stringAt(doc.getIn(['metadata', 'type']), 'type'),
        ...stringAt(doc.get('apiVersion'), 'apiVersion'),
        ...stringAt(doc.get('kind'), 'kind'),
      };
      if (!isSensitive(header)) continue;
      const [start, , end] = doc.range;
      ranges.push([lineCounter.linePos(start).line - 1, lineCounter.linePos(end).line - 1]);
    }
  } catch {
    // Text the parser gives up on (an alias bomb): no document known sensitive in it.
  }
  return ranges;
}

function stringAt(value: unknown, key: keyof DocumentHeader): DocumentHeader {
  return typeof value === 'string' ? { [key]: value } : {};
}
