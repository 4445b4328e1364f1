import { compareStrings } from '../../engine/compare-strings.js';
import type { ResourceRow } from './resource-row.js';

/** A row of one type to put in place (or, with no row, to take out), by namespace and id. */
export interface RowEdit {
  readonly namespace: string;
  readonly id: string;
  readonly row: ResourceRow | undefined;
}

/** Up to this many edits, a patch splices a native copy; more, it merges. */
const FEW = 16;

/** The edit that puts `row` in its resource's place. */
export function putRow(row: ResourceRow): RowEdit {
  const { namespace, id } = row.resource.metadata;
  return { namespace, id, row };
}

/**
 * A type's rows (sorted by namespace and id) with `edits` made: the rows between the edits are
 * copied as they are, so it costs a copy of the array and a binary search per edit, and builds
 * no row but the edits'. Edits of the same place: the last one wins.
 */
export function patchRows(
  rows: readonly ResourceRow[],
  edits: readonly RowEdit[],
): readonly ResourceRow[] {
  if (edits.length === 0) return rows;
  const byPlace = new Map<string, RowEdit>();
  for (const edit of edits) byPlace.set(`${edit.namespace}\0${edit.id}`, edit);
  const sorted = [...byPlace.values()].sort(
    (a, b) => compareStrings(a.namespace, b.namespace) || compareStrings(a.id, b.id),
  );
  if (sorted.length <= FEW) {
    // A native copy and a splice per edit, from the end so that places do not move.
    const out = rows.slice();
    for (let i = sorted.length - 1; i >= 0; i--) {
      const edit = sorted[i] as RowEdit;
      const at = lowerBound(out, edit, 0);
      const there = out[at]?.resource.metadata;
      const remove = there && there.namespace === edit.namespace && there.id === edit.id ? 1 : 0;
      if (edit.row) out.splice(at, remove, edit.row);
      else out.splice(at, remove);
    }
    return out;
  }
  const out: ResourceRow[] = [];
  let from = 0;
  for (const edit of sorted) {
    const at = lowerBound(rows, edit, from);
    for (let i = from; i < at; i++) out.push(rows[i] as ResourceRow);
    from = at;
    const there = rows[at]?.resource.metadata;
    if (there && there.namespace === edit.namespace && there.id === edit.id) from++;
    if (edit.row) out.push(edit.row);
  }
  for (let i = from; i < rows.length; i++) out.push(rows[i] as ResourceRow);
  return out;
}

function lowerBound(
  rows: readonly ResourceRow[],
  place: { readonly namespace: string; readonly id: string },
  from: number,
): number {
  let lo = from;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const md = (rows[mid] as ResourceRow).resource.metadata;
    if ((compareStrings(md.namespace, place.namespace) || compareStrings(md.id, place.id)) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** The rows a round marked go back to plain rows (`-` rows go) the round after. */
export function unmarkRows(marked: readonly ResourceRow[]): RowEdit[] {
  return marked.map((row) => {
    const { namespace, id } = row.resource.metadata;
    return {
      namespace,
      id,
      row: row.marker === '-' ? undefined : { marker: ' ', resource: row.resource },
    };
  });
}
