import type { Position, StreamPositions } from './position.js';

/** One non-empty document of a YAML stream, as plain data, with a way back to positions. */
export interface ParsedDocument {
  readonly file: string;
  /** 0-based index of the document in its file; empty documents are counted too. */
  readonly index: number;
  /** Where the document's root node starts. */
  readonly position: Position;
  /**
   * The document as plain JSON-like data (objects, arrays, strings, numbers, booleans, null), or
   * `undefined` when it could not be read (a syntax error, an alias bomb).
   */
  readonly value: unknown;
  /** True when reading this document produced an error finding. */
  readonly hasErrors: boolean;
  /**
   * The position of the node at a JSON pointer, or of its nearest existing parent.
   * With `part: 'key'`, the position of the key of the last segment (for unknown keys).
   */
  locate(pointer: string, part?: 'key' | 'value'): Position;
  /** The position of the `occurrence`-th `text` in the scalar at a pointer: see {@link StreamPositions.locateText}. */
  locateText(pointer: string, text: string, occurrence: number): Position;
  /**
   * The positions of every document of the file, by index: what a loaded resource keeps to
   * locate pointers later, instead of its document.
   */
  readonly source: StreamPositions;
}
