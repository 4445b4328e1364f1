import chalk from 'chalk';
import { cutDisplay, padDisplay } from '../render/display-width.js';
import { rowCells, type RowCells } from './resource-cells.js';
import type { ChangeMarker, ResourceRow, TypeGroup } from './round-view.js';

/** Between two cells of a row, as talosctl's tables separate them. */
export const CELL_GAP = '   ';

/**
 * The rows of the resource list as finished lines of text, each built once per row object: rows
 * that did not change between rounds are the same objects (see `patchRows`), so redrawing them
 * costs a lookup.
 */
export interface RowLines {
  /** A row's cells (print columns evaluated), and which of them changed this round. */
  cells(group: TypeGroup, row: ResourceRow): RowCells;
  /**
   * A row as one styled line: its change marker, then its cells padded to `widths` and
   * separated by {@link CELL_GAP}, changed cells in bold yellow, a destroyed row struck through.
   */
  line(group: TypeGroup, row: ResourceRow, widths: readonly number[]): string;
  /** How many cells and lines were built rather than found: the work done, for tests. */
  readonly built: { readonly cells: number; readonly lines: number };
}

const MARKER_STYLE: Record<ChangeMarker, (text: string) => string> = {
  '+': (text) => chalk.green(text),
  '-': (text) => chalk.red(text),
  '~': (text) => chalk.yellow(text),
  ' ': (text) => text,
};

/** Row styles without color: the marker and the changed cells in bold, the rest as with color. */
const UNCOLORED = (text: string): string => text;

interface Entry {
  /** What the cells were built from: a new definition of the type builds them again. */
  readonly columns: TypeGroup['columns'];
  readonly sensitive: boolean;
  readonly cells: RowCells;
  /** The last line built, for these widths and this color level. */
  widths?: string;
  level?: number;
  line?: string;
}

/**
 * A cache of row lines for one screen. It styles with chalk's shared instance, as ink's `<Text>`
 * does, applying the same styles in the same order (dim, color, bold, strikethrough), so the
 * screen is the one nested `<Text>`s drew; but one string per row is one text node for React and
 * Yoga instead of one per cell, and ink's per-cell styling runs once per row instead of per frame.
 */
export function createRowLines(options: { readonly color?: boolean } = {}): RowLines {
  const color = options.color !== false;
  const cache = new WeakMap<ResourceRow, Entry>();
  const built = { cells: 0, lines: 0 };

  const entryOf = (group: TypeGroup, row: ResourceRow): Entry => {
    let entry = cache.get(row);
    if (
      !entry ||
      entry.sensitive !== group.sensitive ||
      !sameColumns(entry.columns, group.columns)
    ) {
      built.cells++;
      entry = { columns: group.columns, sensitive: group.sensitive, cells: rowCells(group, row) };
      cache.set(row, entry);
    }
    return entry;
  };

  return {
    cells: (group, row) => entryOf(group, row).cells,
    line(group, row, widths) {
      const entry = entryOf(group, row);
      const key = widths.join(',');
      if (entry.line !== undefined && entry.widths === key && entry.level === chalk.level) {
        return entry.line;
      }
      built.lines++;
      entry.widths = key;
      entry.level = chalk.level;
      entry.line = formatRow(row.marker, entry.cells, widths, color);
      return entry.line;
    },
    built,
  };
}

function formatRow(
  marker: ChangeMarker,
  { cells, changed }: RowCells,
  widths: readonly number[],
  color: boolean,
) {
  const hue = color ? MARKER_STYLE[marker] : UNCOLORED;
  const changedHue = color ? (text: string) => chalk.yellow(text) : UNCOLORED;
  let line = `${chalk.bold(hue(marker))} `;
  cells.forEach((text, i) => {
    const last = i === cells.length - 1;
    let cell = last ? text : `${fitCell(text, widths[i] ?? 0)}${CELL_GAP}`;
    if (cell === '') return;
    if (marker === '-') cell = chalk.dim(cell);
    if (changed.has(i)) cell = chalk.bold(changedHue(cell));
    if (marker === '-') cell = chalk.strikethrough(cell);
    line += cell;
  });
  return line;
}

/**
 * The widest a column grows, but the last: one long id (Kubernetes allows 253 characters) would
 * push every other column of its type off screen, the changed cell of an update with them.
 * A longer cell is cut with `…`; Enter's detail view shows it whole.
 */
export const MAX_COLUMN_WIDTH = 40;

/** The cell padded to `width`, or cut to it with `…` when longer. */
export function fitCell(text: string, width: number): string {
  return padDisplay(cutDisplay(text, width), width);
}

function sameColumns(a: TypeGroup['columns'], b: TypeGroup['columns']): boolean {
  return (
    a === b ||
    (a.length === b.length &&
      a.every((c, i) => {
        const d = b[i];
        return d !== undefined && c.name === d.name && c.jsonPath === d.jsonPath;
      }))
  );
}
