/**
 * What kubectl reads and YAML 1.2 does not: a quoted scalar or a flow collection (`[...]`,
 * `{...}`) that goes on over several lines, with a continuation line no more indented than the
 * key it belongs to. go-yaml (under `sigs.k8s.io/yaml`, kubectl's parser) takes such a line;
 * YAML 1.2 (and the `yaml` package) ends the scalar or collection there and reports errors that
 * say nothing useful ("Missing closing 'quote" where the quote is). Generators write it:
 * OpenTelemetry's operator bundle has `description: '...` with its lines at the key's column,
 * Argo Workflows' examples `args: ["` with the closing `"]` at the key's column.
 *
 * {@link relaxIndentation} finds such lines and indents them just past their key. Whitespace at
 * the start of a continuation line is no part of a flow scalar's value (it is folded) nor of a
 * flow collection, so the values read from the relaxed text are the ones kubectl reads. Only
 * spaces are inserted, at the start of lines: line numbers stay, and a column on a relaxed line
 * is the original one plus that line's shift ({@link ShiftedLineIndex} counts them back).
 */

import { LineIndex } from './line-index.js';
import type { Position } from './position.js';

/** A construct that went on below its key, and the lines indented for it. */
export interface RelaxedConstruct {
  /** 1-based line of the key whose value it is. */
  readonly line: number;
  /** 1-based line of its first continuation line that was indented. */
  readonly firstShifted: number;
  /** The column continuation lines must pass (the key's, 1-based). */
  readonly keyColumn: number;
}

/** The relaxed text, the spaces added to each line (by 1-based line), and where. */
export interface RelaxedText {
  readonly text: string;
  readonly shifts: ReadonlyMap<number, number>;
  readonly constructs: readonly RelaxedConstruct[];
}

/** A line's flow state: inside a quoted scalar, and how deep in brackets. */
interface FlowState {
  quote: '"' | "'" | undefined;
  depth: number;
}

const BLOCK_SCALAR = /^[|>][-+0-9]*\s*(?:#.*)?$/;
const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?:\s|$)/;

/**
 * `text` with every under-indented continuation line of a flow construct indented past its key;
 * undefined when there is none.
 */
export function relaxIndentation(text: string): RelaxedText | undefined {
  const lines = text.split('\n');
  const shifts = new Map<number, number>();
  const constructs: RelaxedConstruct[] = [];
  /** The open construct: where its key is, and its flow state. */
  let open: { line: number; keyColumn: number; state: FlowState; shifted: boolean } | undefined;
  /** A block scalar's key column: lines more indented than it are its content. */
  let blockScalarKey: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const indent = line.length - line.trimStart().length;
    const blank = line.trim() === '';
    if (open !== undefined) {
      if (DOCUMENT_MARKER.test(line)) {
        // A document's end ends what it left open: the parse reports that.
        open = undefined;
        continue;
      }
      if (!blank && indent < open.keyColumn) {
        const shift = open.keyColumn - indent;
        lines[i] = ' '.repeat(shift) + line;
        shifts.set(i + 1, shift);
        if (!open.shifted) {
          constructs.push({ line: open.line, firstShifted: i + 1, keyColumn: open.keyColumn });
          open.shifted = true;
        }
      }
      scanFlow(line, indent, open.state);
      if (open.state.quote === undefined && open.state.depth === 0) open = undefined;
      continue;
    }
    if (blockScalarKey !== undefined) {
      if (blank || indent > blockScalarKey) continue;
      blockScalarKey = undefined;
    }
    if (blank || DOCUMENT_MARKER.test(line) || line.trimStart().startsWith('#')) continue;
    const value = blockValue(line, indent);
    if (value === undefined) continue;
    if (BLOCK_SCALAR.test(line.slice(value.start))) {
      blockScalarKey = value.keyColumn;
      continue;
    }
    const first = line.charAt(value.start);
    if (first !== '"' && first !== "'" && first !== '[' && first !== '{') continue;
    const state: FlowState = { quote: undefined, depth: 0 };
    scanFlow(line, value.start, state);
    if (state.quote !== undefined || state.depth > 0) {
      open = { line: i + 1, keyColumn: value.keyColumn + 1, state, shifted: false };
    }
  }
  if (constructs.length === 0) return undefined;
  return { text: lines.join('\n'), shifts, constructs };
}

/**
 * Where a block line's value starts (after `key: `, or after `- `), and the column (0-based) of
 * its key or item; undefined for a line with neither.
 */
function blockValue(
  line: string,
  indent: number,
): { start: number; keyColumn: number } | undefined {
  let at = indent;
  // `- - key: value`: the innermost item's key is the column that counts.
  while (line.startsWith('- ', at)) at += 2;
  const itemStart = at;
  const key = keyEnd(line, at);
  if (key === undefined) {
    // An item whose value is the construct itself: `- [a,` or `- "text`.
    return itemStart > indent
      ? { start: skipSpaces(line, itemStart), keyColumn: itemStart - 2 }
      : undefined;
  }
  return { start: skipSpaces(line, key), keyColumn: itemStart };
}

/** The index after a block mapping key's `:` (and the space after it), from `at`; undefined when none. */
function keyEnd(line: string, at: number): number | undefined {
  const c = line.charAt(at);
  if (c === '"' || c === "'") {
    const close = closingQuote(line, at + 1, c);
    if (close === undefined) return undefined;
    return line.charAt(close + 1) === ':' && /[\s]|$/.test(line.charAt(close + 2) || ' ')
      ? close + 2
      : undefined;
  }
  if (
    c === '[' ||
    c === '{' ||
    c === '#' ||
    c === '&' ||
    c === '*' ||
    c === '!' ||
    c === '|' ||
    c === '>'
  ) {
    return undefined;
  }
  for (let i = at; i < line.length; i++) {
    const ch = line.charAt(i);
    if (
      ch === ':' &&
      (i + 1 === line.length || line.charAt(i + 1) === ' ' || line.charAt(i + 1) === '\t')
    ) {
      return i + 1;
    }
    if (ch === ' ' && line.charAt(i + 1) === '#') return undefined;
  }
  return undefined;
}

function skipSpaces(line: string, at: number): number {
  let i = at;
  while (line.charAt(i) === ' ' || line.charAt(i) === '\t') i++;
  return i;
}

/** The index of the quote that closes a scalar opened before `from`; undefined when the line ends first. */
function closingQuote(line: string, from: number, quote: '"' | "'"): number | undefined {
  for (let i = from; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote === '"' && c === '\\') {
      i++;
    } else if (c === quote) {
      if (quote === "'" && line.charAt(i + 1) === "'") i++;
      else return i;
    }
  }
  return undefined;
}

/** Follows the quotes and brackets of a line from `from`, updating `state`. */
function scanFlow(line: string, from: number, state: FlowState): void {
  for (let i = from; i < line.length; i++) {
    const c = line.charAt(i);
    if (state.quote !== undefined) {
      if (state.quote === '"' && c === '\\') {
        i++;
      } else if (c === state.quote) {
        if (state.quote === "'" && line.charAt(i + 1) === "'") i++;
        else state.quote = undefined;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      // A quote opens a scalar where a flow node starts; inside a plain scalar it is a character.
      const before = line.slice(0, i).trimEnd().at(-1);
      if (
        before === undefined ||
        before === '[' ||
        before === '{' ||
        before === ',' ||
        before === ':' ||
        before === '-'
      ) {
        state.quote = c;
      }
    } else if (c === '[' || c === '{') {
      state.depth++;
    } else if (c === ']' || c === '}') {
      if (state.depth > 0) state.depth--;
      if (state.depth === 0) return;
    } else if (c === '#' && (i === 0 || line.charAt(i - 1) === ' ')) {
      return;
    }
  }
}

/**
 * The positions of a relaxed text counted as in the text it was made from: a column on a line
 * that was indented is moved back by the spaces added (to column 1 at least).
 */
export class ShiftedLineIndex extends LineIndex {
  constructor(
    text: string,
    readonly shifts: ReadonlyMap<number, number>,
    origin?: Position,
  ) {
    super(text, origin);
  }

  protected override textPos(offset: number): Position {
    const position = super.textPos(offset);
    const shift = this.shifts.get(position.line);
    return shift === undefined
      ? position
      : { line: position.line, col: Math.max(1, position.col - shift) };
  }
}
