import type { Resource } from '../../engine/resource/resource.js';
import type { ChangeMarker, ResourceRow } from './resource-row.js';

/**
 * Rows of one type as they cross to the screen: what the screen shows of each (the cells'
 * metadata, the labels the filter reads, the spec only when a print column shows part of it),
 * column by column. Arrays of strings and numbers clone several times faster than as many
 * objects; the screen builds its rows from them. Annotations, finalizers, owner references and
 * timestamps stay in the worker, whose detail pane answers for them.
 */
export interface RowColumns {
  /** One character per row (see {@link ChangeMarker}). */
  readonly markers: string;
  readonly namespaces: readonly string[];
  readonly ids: readonly string[];
  readonly versions: Float64Array;
  readonly owners: readonly string[];
  /** One character per row: `r` running, `t` tearing down. */
  readonly phases: string;
  /** Per row, its labels as JSON; empty when it has none. */
  readonly labels: readonly string[];
  /** Per row, its spec: only when the type shows print columns. */
  readonly specs?: readonly unknown[];
  /** The changed rows' (`~`) previous versions, as rows of their own (their changed cells). */
  readonly previous?: { readonly at: Int32Array; readonly rows: RowColumns };
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

/** `rows` (all of the type `type`) as columns; their specs only `withSpec`. */
export function toRowColumns(rows: readonly ResourceRow[], withSpec: boolean): RowColumns {
  const n = rows.length;
  const namespaces = new Array<string>(n);
  const ids = new Array<string>(n);
  const versions = new Float64Array(n);
  const owners = new Array<string>(n);
  const labels = new Array<string>(n);
  const specs = withSpec ? new Array<unknown>(n) : undefined;
  let markers = '';
  let phases = '';
  const changed: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = rows[i] as ResourceRow;
    const md = row.resource.metadata;
    markers += row.marker;
    namespaces[i] = md.namespace;
    ids[i] = md.id;
    versions[i] = md.version;
    owners[i] = md.owner;
    phases += md.phase === 'running' ? 'r' : 't';
    labels[i] = hasKeys(md.labels) ? JSON.stringify(md.labels) : '';
    if (specs) specs[i] = row.resource.spec;
    if (row.marker === '~' && row.previous) changed.push(i);
  }
  const previous =
    changed.length === 0
      ? undefined
      : {
          at: Int32Array.from(changed),
          rows: toRowColumns(
            changed.map((i) => ({
              marker: ' ',
              resource: (rows[i] as ResourceRow).previous as Resource,
            })),
            withSpec,
          ),
        };
  return {
    markers,
    namespaces,
    ids,
    versions,
    owners,
    phases,
    labels,
    ...(specs ? { specs } : {}),
    ...(previous ? { previous } : {}),
  };
}

/** The rows of the type `type` that {@link toRowColumns} made columns of. */
export function fromRowColumns(columns: RowColumns, type: string): ResourceRow[] {
  const previous = new Map<number, Resource>();
  if (columns.previous) {
    const before = fromRowColumns(columns.previous.rows, type);
    columns.previous.at.forEach((row, k) => previous.set(row, (before[k] as ResourceRow).resource));
  }
  const rows = new Array<ResourceRow>(columns.ids.length);
  for (let i = 0; i < rows.length; i++) {
    const labels = columns.labels[i] ?? '';
    // What the screen reads of a resource: the rest of its metadata is never looked at there.
    const metadata = {
      namespace: columns.namespaces[i] ?? '',
      type,
      id: columns.ids[i] ?? '',
      version: columns.versions[i] ?? 0,
      owner: columns.owners[i] ?? '',
      phase: columns.phases[i] === 't' ? 'tearingDown' : 'running',
      labels: labels === '' ? NO_LABELS : (JSON.parse(labels) as Record<string, string>),
    } as Resource['metadata'];
    const before = previous.get(i);
    rows[i] = {
      marker: (columns.markers[i] ?? ' ') as ChangeMarker,
      resource: { metadata, spec: columns.specs?.[i] },
      ...(before ? { previous: before } : {}),
    };
  }
  return rows;
}

function hasKeys(record: object): boolean {
  for (const _ in record) return true;
  return false;
}
