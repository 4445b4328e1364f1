/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly col: number;
}
