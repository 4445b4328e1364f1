import { ChunkedWriter, collectChunks } from './chunked-writer.js';
import { escapeControl } from './escape-control.js';

/**
 * Left-aligned columns separated by three spaces, like Go's tabwriter in talosctl. Control
 * characters in cells are printed escaped (see `escape-control.ts`).
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  return collectChunks((write) => {
    const out = new ChunkedWriter(write);
    writeTable(header, rows, out);
    out.flush();
  });
}

/**
 * {@link renderTable}, line by line into `out`: the widths need every row, but the lines are
 * made one at a time, so a large table is never held as text whole.
 */
export function writeTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  out: ChunkedWriter,
): void {
  const all = [header, ...rows].map(escapeRow);
  const widths = header.map(() => 0);
  for (const row of all) {
    for (let i = 0; i < widths.length; i++) {
      widths[i] = Math.max(widths[i] as number, (row[i] ?? '').length);
    }
  }
  for (const row of all) {
    const line = row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('   ')
      .trimEnd();
    out.push(`${line}\n`);
  }
}

/** The row with its cells escaped; the same row when none needs it (the common case). */
function escapeRow(row: readonly string[]): readonly string[] {
  let escaped: string[] | undefined;
  for (let i = 0; i < row.length; i++) {
    const cell = row[i] as string;
    const safe = escapeControl(cell);
    if (safe !== cell) (escaped ??= [...row])[i] = safe;
  }
  return escaped ?? row;
}
