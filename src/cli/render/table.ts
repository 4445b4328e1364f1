import { escapeControl } from './escape-control.js';

/**
 * Left-aligned columns separated by three spaces, like Go's tabwriter in talosctl. Control
 * characters in cells are printed escaped (see `escape-control.ts`).
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const all = [header, ...rows].map((row) => row.map(escapeControl));
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('   ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}
