import { ChunkedWriter, collectChunks } from './chunked-writer.js';
import { displayWidth, padDisplay } from './display-width.js';
import { escapeControl } from './escape-control.js';

/** How a table is printed. */
export interface TableOptions {
  /** Without the header line (kubectl's `--no-headers`): the columns are as wide as the rows. */
  readonly noHeader?: boolean;
}

/**
 * Left-aligned columns separated by three spaces, like Go's tabwriter in talosctl. Control
 * characters in cells are printed escaped (see `escape-control.ts`).
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string {
  return collectChunks((write) => {
    const out = new ChunkedWriter(write);
    writeTable(header, rows, out, options);
    out.flush();
  });
}

/**
 * {@link renderTable}, line by line into `out`. `rows` is read twice, once for the widths and once
 * for the lines, so a caller may make each row as it is read: a table of 50,000 rows is then
 * never held whole, neither as text nor as cells.
 */
export function writeTable(
  header: readonly string[],
  rows: Iterable<readonly string[]>,
  out: ChunkedWriter,
  options: TableOptions = {},
): void {
  const widths = columnWidths(header, rows, options);
  if (options.noHeader !== true) out.push(tableLine(header, widths));
  for (const row of rows) out.push(tableLine(row, widths));
}

/**
 * The widths of a table's columns: the widest cell of each (the header's too, unless
 * `noHeader`). A table printed a row at a time (`get -w`) keeps them and widens them as rows
 * come.
 */
export function columnWidths(
  header: readonly string[],
  rows: Iterable<readonly string[]>,
  options: TableOptions = {},
): number[] {
  const widths = header.map((cell) =>
    options.noHeader === true ? 0 : displayWidth(escapeControl(cell)),
  );
  for (const row of rows) widenColumns(widths, row);
  return widths;
}

/** Widens `widths` in place to fit `row`. */
export function widenColumns(widths: number[], row: readonly string[]): void {
  for (let i = 0; i < widths.length; i++) {
    widths[i] = Math.max(widths[i] as number, displayWidth(escapeControl(row[i] ?? '')));
  }
}

/** One line of the table: every cell but the last padded to its column's width. */
export function tableLine(row: readonly string[], widths: readonly number[]): string {
  let text = '';
  for (let i = 0; i < row.length; i++) {
    const cell = escapeControl(row[i] as string);
    if (i > 0) text += '   ';
    text += i === row.length - 1 ? cell : padDisplay(cell, widths[i] ?? 0);
  }
  return `${text.trimEnd()}\n`;
}
