import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { withholdSecretLines } from './secret-excerpt.js';

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
 * A file that cannot be read (gone, a directory, the standard input) gives no excerpt.
 */
export function createExcerptReader(
  cwd: string,
): (file: string, line: number) => SourceExcerpt | undefined {
  const files = new Map<string, readonly string[] | undefined>();
  const linesOf = (file: string): readonly string[] | undefined => {
    if (!files.has(file)) files.set(file, readLines(path.resolve(cwd, file)));
    return files.get(file);
  };
  return (file, line) => {
    if (file === '' || file === '<stdin>' || line < 1) return undefined;
    const lines = linesOf(file);
    if (!lines || line > lines.length) return undefined;
    const first = Math.max(1, line - CONTEXT);
    const last = Math.min(lines.length, line + CONTEXT);
    return {
      first,
      lines: withholdSecretLines(lines, first, last).map((l) =>
        l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l,
      ),
    };
  };
}

function readLines(file: string): readonly string[] | undefined {
  try {
    const text = readFileSync(file);
    if (text.length > MAX_FILE) return undefined;
    return text.toString('utf8').split(/\r?\n/);
  } catch {
    return undefined;
  }
}
