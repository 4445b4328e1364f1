import type { Position } from './position.js';

/**
 * Where each line of a text starts, as offsets in one typed array: a compact stand-in for yaml's
 * `LineCounter` (an array of numbers grown line by line), kept for as long as the resources
 * loaded from the text live, to place findings about them. 4 bytes a line.
 *
 * Lines end at line feeds only (a carriage return before one is part of its line).
 */
export class LineIndex {
  readonly #starts: Uint32Array;

  constructor(text: string) {
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
   * The 1-based line and column of an offset, as yaml's `LineCounter.linePos` gives them: an
   * offset at the start of a line is column 1 of that line.
   */
  linePos(offset: number): Position {
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
