import type { Resource } from '../../engine/resource/resource.js';
import { withStoredDefaults } from '../../loaders/kubernetes/api-server-defaults.js';
import { printCell, printColumnHeaders } from '../render/resource-table.js';
import type { ResourceRow, TypeGroup } from './round-view.js';

/** A row as table cells, and which of them changed since the previous round. */
export interface RowCells {
  readonly cells: readonly string[];
  /** Indices into `cells`. */
  readonly changed: ReadonlySet<number>;
}

/**
 * The column headers of a group's table: talosctl's, without TYPE (the group says it), and
 * without NAMESPACE for a cluster-scoped Kubernetes kind, as kubectl's tables and `cosi get`'s:
 * its objects have none (cosi's placeholder namespace is not theirs).
 */
export function columnHeaders(group: TypeGroup): string[] {
  const own = [...(namespaced(group) ? ['NAMESPACE'] : []), 'ID', 'VERSION', 'OWNER', 'PHASE'];
  return [...own, ...printColumnHeaders(group.columns, group.displayType, ['TYPE', ...own])];
}

/**
 * A row's cells, computed only for the rows on screen (print columns evaluate JSONPath, which is
 * what makes a table of 30k resources slow). An updated row marks the cells whose text differs
 * from the previous round's.
 */
export function rowCells(group: TypeGroup, row: ResourceRow): RowCells {
  const cells = cellsOf(group, row.resource);
  const changed = new Set<number>();
  if (row.marker === '~' && row.previous) {
    const before = cellsOf(group, row.previous);
    cells.forEach((cell, i) => {
      if (cell !== before[i]) changed.add(i);
    });
  }
  return { cells, changed };
}

function cellsOf(group: TypeGroup, resource: Resource): string[] {
  const md = resource.metadata;
  // As the table's: a built-in kind's object as the API server stores it, kubectl's cells.
  const spec =
    group.columns.length === 0 || group.sensitive
      ? resource.spec
      : withStoredDefaults(resource.spec, group.kind);
  return [
    ...(namespaced(group) ? [md.namespace] : []),
    md.id,
    String(md.version),
    md.owner,
    md.phase,
    ...group.columns.map((c) => (group.sensitive ? '' : printCell(c, group.kind)(spec))),
  ];
}

/** Whether the group's objects have a namespace: all but a cluster-scoped Kubernetes kind's. */
export function namespaced(group: Pick<TypeGroup, 'kind'>): boolean {
  return group.kind?.namespaced !== false;
}
