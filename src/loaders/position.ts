/** Places in a text: a line and column, and where JSON pointers are in a stream's documents. */

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

/** Where JSON pointers are in the documents of one stream, by document index. */
export interface StreamPositions {
  /**
   * The position of the node at a pointer in the document with this index, or of its nearest
   * existing parent; with `part: 'key'`, of the last segment's key.
   */
  locate(index: number, pointer: string, part?: 'key' | 'value'): Position;
}
