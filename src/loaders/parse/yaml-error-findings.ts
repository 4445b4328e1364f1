/** yaml's errors and warnings as findings, placed where the reader can act on them. */

import { YAMLWarning, type YAMLError } from 'yaml';
import { createFinding, type Finding } from '../finding.js';
import type { LineIndex } from '../line-index.js';
import { MAX_MESSAGE_LENGTH, shortenMessage } from '../shorten.js';
import { MAX_FINDINGS_PER_DOCUMENT } from '../document-finding-limit.js';

/**
 * A document's YAML errors, the first {@link MAX_FINDINGS_PER_DOCUMENT} of them and an "and N
 * more" (an error early in a document makes one at every line after it).
 */
export function pushYamlErrors(
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

export function fromYamlError(
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

/** yaml's codes for what is most often a key indented too far (or not far enough). */
const INDENTATION_ERRORS = new Set([
  'BAD_INDENT',
  'BLOCK_AS_IMPLICIT_KEY',
  'MULTILINE_IMPLICIT_KEY',
  'UNEXPECTED_TOKEN',
]);
