import type { ResourceRow } from './resource-row.js';
import type { RoundView, TypeGroup } from './round-view.js';
import { fromRowColumns, toRowColumns, type RowColumns } from './row-columns.js';

/**
 * A round view as it crosses from the worker thread a watch session runs in to the screen: what
 * only the worker needs (the run's record, the controller graph, the manifests, the write
 * history) is left out, and each type's rows are sent against the previous round's: a group the
 * round did not touch is named only, and in a group it did, a row that was sent before is its
 * index there. A round of a large tree that changed a few resources costs a few rows, not a copy
 * of the state. Rows are sent as columns of what the screen shows of them (see `row-columns.ts`):
 * the first round of a large tree is every row, and the detail pane asks the worker for the rest.
 */
export interface RoundViewTransfer {
  readonly view: Omit<RoundView, 'groups' | 'writes' | 'record' | 'graph' | 'manifest'>;
  readonly groups: readonly GroupTransfer[];
}

type GroupTransfer =
  /** The previous round's group of this type, as it was. */
  | { readonly type: string; readonly same: true }
  | {
      readonly group: Omit<TypeGroup, 'rows'>;
      /** Per row: its index in the previous round's rows of the type, or -1: the next of `added`. */
      readonly kept: Int32Array;
      readonly added: RowColumns;
    };

/** The worker's side: each view against the one before (the first, whole). */
export function createRoundViewEncoder(): (view: RoundView) => RoundViewTransfer {
  let previous = new Map<string, TypeGroup>();
  return (view) => {
    const groups = view.groups.map((group): GroupTransfer => {
      const before = previous.get(group.type);
      if (before === group) return { type: group.type, same: true };
      const index = new Map<ResourceRow, number>(before?.rows.map((row, i) => [row, i]));
      const showsSpec = group.columns.length > 0 && !group.sensitive;
      const kept = new Int32Array(group.rows.length);
      const added: ResourceRow[] = [];
      for (const [i, row] of group.rows.entries()) {
        const at = index.get(row);
        kept[i] = at ?? -1;
        if (at === undefined) added.push(row);
      }
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { rows, ...rest } = group;
      return { group: rest, kept, added: toRowColumns(added, showsSpec) };
    });
    previous = new Map(view.groups.map((g) => [g.type, g]));
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { groups: _groups, writes, record, graph, manifest, ...plain } = view;
    return { view: plain, groups };
  };
}

/** The screen's side: the views of one worker, in the order it sent them. */
export function createRoundViewDecoder(): (transfer: RoundViewTransfer) => RoundView {
  let previous = new Map<string, TypeGroup>();
  return ({ view, groups }) => {
    const decoded = groups.map((g): TypeGroup => {
      const before = previous.get('same' in g ? g.type : g.group.type);
      if ('same' in g) {
        if (before === undefined) throw new Error(`no earlier rows of ${g.type}`);
        return before;
      }
      const added = fromRowColumns(g.added, g.group.type);
      let next = 0;
      const rows = Array.from(g.kept, (at) => {
        const row = at < 0 ? added[next++] : before?.rows[at];
        if (row === undefined) throw new Error(`a row of ${g.group.type} that was never sent`);
        return row;
      });
      return { ...g.group, rows };
    });
    previous = new Map(decoded.map((g) => [g.type, g]));
    return { ...view, groups: decoded, writes: new Map() };
  };
}
