/**
 * Places in the input: a line and column, a finding's place (file, line, column, pointer), and
 * where JSON pointers are in a stream's documents.
 */

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

/** Whether two positions (or two absent ones) are the same. */
export function samePosition(a: Position | undefined, b: Position | undefined): boolean {
  return a === b || (a?.line === b?.line && a?.col === b?.col);
}

/** Where JSON pointers are in the documents of one stream, by document index. */
export interface StreamPositions {
  /**
   * The position of the node at a pointer in the document with this index, or of its nearest
   * existing parent; with `part: 'key'`, of the last segment's key.
   */
  locate(index: number, pointer: string, part?: 'key' | 'value'): Position;
  /**
   * The position of the `occurrence`-th (from 0) `text` in the source of the scalar at a
   * pointer (a `${` inside a quoted string), or of the scalar when its source does not hold it.
   */
  locateText(index: number, pointer: string, text: string, occurrence: number): Position;
}

/** A place in the input. */
export interface SourceLocation {
  /** The file as given (relative paths stay relative); empty for the input as a whole. */
  readonly file: string;
  /** 1-based; 0 when the finding is about a whole file or the whole input. */
  readonly line: number;
  /** 1-based; 0 when `line` is 0. */
  readonly col: number;
  /**
   * JSON pointer inside the document (`/spec/cpus`); empty for the whole document or file. In a
   * finding, a very long key in it is cut (`/spec/kkkk…`): the line and column stay exact.
   */
  readonly pointer: string;
}
