import type { ResourceRow, TypeGroup } from './round-view.js';

/** Where the cursor is: a group and a row in it. */
export interface Selection {
  readonly group: number;
  readonly row: number;
}

/** One line of the resource list on screen. */
export type ListLine =
  | { readonly kind: 'type'; readonly group: TypeGroup; readonly index: number }
  | { readonly kind: 'columns'; readonly group: TypeGroup; readonly index: number }
  | {
      readonly kind: 'row';
      readonly group: TypeGroup;
      readonly index: number;
      readonly row: ResourceRow;
      readonly rowIndex: number;
    };

/** Lines a group takes: its title, its column headers, its rows. */
const HEAD = 2;

/**
 * The lines of the resource list that fit in `height`, around the selection: the virtual window.
 * A window that starts inside a type's rows shows that type's title and column headers on its
 * first two lines (pinned, as k9s and top keep theirs), over the rows that scrolled under them.
 * Costs the number of groups plus `height`, whatever the number of rows, so 30k resources redraw
 * as fast as 30.
 */
export function visibleLines(
  groups: readonly TypeGroup[],
  selection: Selection,
  height: number,
): ListLine[] {
  if (height <= 0 || groups.length === 0) return [];
  const offsets: number[] = [];
  let total = 0;
  for (const group of groups) {
    offsets.push(total);
    total += HEAD + group.rows.length;
  }
  const selected = (offsets[selection.group] ?? 0) + HEAD + selection.row;
  const top = Math.max(0, Math.min(selected - Math.floor(height / 2), total - height));
  const lines: ListLine[] = [];
  let g = groupAt(offsets, top);
  for (let line = top; line < Math.min(total, top + height); line++) {
    while (g + 1 < groups.length && (offsets[g + 1] ?? Infinity) <= line) g++;
    const group = groups[g] as TypeGroup;
    const at = line - (offsets[g] ?? 0);
    if (at === 0) lines.push({ kind: 'type', group, index: g });
    else if (at === 1) lines.push({ kind: 'columns', group, index: g });
    else {
      const rowIndex = at - HEAD;
      lines.push({
        kind: 'row',
        group,
        index: g,
        row: group.rows[rowIndex] as ResourceRow,
        rowIndex,
      });
    }
  }
  return pinHead(lines, height);
}

/**
 * The window with the title (and the column headers, from 4 lines on) of the type whose rows it
 * starts in, in place of its first lines. The selection is never under them: it is at least half
 * the window down, unless the window starts the list, with a title.
 */
function pinHead(lines: ListLine[], height: number): ListLine[] {
  const pinned = height >= 4 ? HEAD : height >= 2 ? 1 : 0;
  const first = lines[pinned];
  if (pinned === 0 || lines[0]?.kind === 'type' || first?.kind !== 'row') return lines;
  const { group, index } = first;
  const head: ListLine[] = [{ kind: 'type', group, index }];
  if (pinned === HEAD) head.push({ kind: 'columns', group, index });
  return [...head, ...lines.slice(pinned)];
}

/** The selection clamped to the groups (after a new round or a filter). */
export function clampSelection(groups: readonly TypeGroup[], selection: Selection): Selection {
  if (groups.length === 0) return { group: 0, row: 0 };
  const group = Math.min(Math.max(selection.group, 0), groups.length - 1);
  const rows = groups[group]?.rows.length ?? 0;
  return { group, row: Math.min(Math.max(selection.row, 0), Math.max(rows - 1, 0)) };
}

/** Moves the selection by `delta` rows, across group boundaries. */
export function moveSelection(
  groups: readonly TypeGroup[],
  selection: Selection,
  delta: number,
): Selection {
  let { group, row } = clampSelection(groups, selection);
  row += delta;
  while (row < 0 && group > 0) {
    group--;
    row += groups[group]?.rows.length ?? 0;
  }
  while (group < groups.length - 1 && row >= (groups[group]?.rows.length ?? 0)) {
    row -= groups[group]?.rows.length ?? 0;
    group++;
  }
  return clampSelection(groups, { group, row });
}

function groupAt(offsets: readonly number[], line: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] ?? 0) <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The selection on the next row marked created, updated or destroyed after it (`direction` 1)
 * or before it (-1), wrapping round the list; the selection itself when no other row is marked.
 * Past a screen of rows, it is how a round's change is found (`n` / `N`, as less's search).
 */
export function nextMarked(
  groups: readonly TypeGroup[],
  selection: Selection,
  direction: 1 | -1,
): Selection {
  const from = clampSelection(groups, selection);
  let { group, row } = from;
  const total = groups.reduce((sum, g) => sum + g.rows.length, 0);
  for (let step = 0; step < total; step++) {
    row += direction;
    while (row < 0 || row >= (groups[group]?.rows.length ?? 0)) {
      group = (group + direction + groups.length) % groups.length;
      row = direction === 1 ? 0 : (groups[group]?.rows.length ?? 0) - 1;
    }
    if (groups[group]?.rows[row]?.marker !== ' ') return { group, row };
  }
  return from;
}
