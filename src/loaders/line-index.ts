import type { Position } from './position.js';

/** Where a text that is a whole file starts: line 1, column 1. */
const FILE_START: Position = { line: 1, col: 1 };

/**
 * Where each line of a text starts, as offsets in one typed array: a compact stand-in for yaml's
 * `LineCounter` (an array of numbers grown line by line), kept for as long as the resources
 * loaded from the text live, to place findings about them. 4 bytes a line.
 *
 * Lines end at line feeds only (a carriage return before one is part of its line).
 *
 * The text may be an excerpt of a larger file (a scenario's inline document): `origin` is where
 * its first character stands in that file, and positions are given in the file. Only lines
 * move by it, and the columns of the text's first line: the lines after it are the file's lines
 * whole.
 */
export class LineIndex {
  readonly #starts: Uint32Array;
  readonly origin: Position;

  constructor(text: string, origin: Position = FILE_START) {
    this.origin = origin;
    let lines = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
    const starts = new Uint32Array(lines);
    let line = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1))
      starts[line++] = i + 1;
    this.#starts = starts;
  }

  /** How many lines the text has (one more than its line feeds). */
  get lines(): number {
    return this.#starts.length;
  }

  /**
   * The 1-based line and column of an offset, as yaml's `LineCounter.linePos` gives them (an
   * offset at the start of a line is column 1 of that line), in the file: see {@link origin}.
   */
  linePos(offset: number): Position {
    return this.inFile(this.textPos(offset));
  }

  /** A position counted in the text alone as a position in the file (see {@link origin}). */
  inFile(position: Position): Position {
    const { line, col } = this.origin;
    if (line === 1 && col === 1) return position;
    return position.line === 1
      ? { line, col: position.col + col - 1 }
      : { line: position.line + line - 1, col: position.col };
  }

  /** {@link linePos} counted in the text alone: its first character is line 1, column 1. */
  protected textPos(offset: number): Position {
    const starts = this.#starts;
    // The last line starting at or before the offset (binary search).
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((starts[mid] as number) <= offset) low = mid + 1;
      else high = mid;
    }
    const line = Math.max(low, 1);
    return { line, col: offset - (starts[line - 1] as number) + 1 };
  }
}
