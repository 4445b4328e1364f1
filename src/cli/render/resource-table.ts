import type { KubernetesKind, PrintColumn } from '../../engine/resource/definition.js';
import type { Resource } from '../../engine/resource/resource.js';
import { withStoredDefaults } from '../../loaders/kubernetes/api-server-defaults.js';
import { builtinPrintCell, type PrintCell } from '../../loaders/kubernetes/builtin-print-cells.js';
import {
  executeTemplate,
  parseTemplate,
  type JsonPathTemplate,
} from '../../loaders/kubernetes/jsonpath.js';
import type { ResourceGroup } from '../../app/resource-query.js';

/** The columns of a type's table: its header, and the cells of one of its resources. */
export interface ResourceTableColumns {
  readonly header: readonly string[];
  readonly row: (resource: Resource) => string[];
}

/**
 * The columns of one type's table, as `talosctl get`: NAMESPACE TYPE ID VERSION OWNER PHASE and
 * the type's print columns (empty for a sensitive type); `wide` adds the labels and the
 * finalizers, as kubectl's `-o wide` adds what does not fit, and `showLabels` the labels. The
 * columns cosi fills itself (owner, labels, finalizers) print `<none>` when empty, as kubectl's
 * own columns do, so `--no-headers | awk` counts the same columns on every row; a print column
 * that finds nothing is blank, as kubectl's for a CRD's printer column and talosctl's. A
 * cluster-scoped Kubernetes kind has no NAMESPACE column, as in kubectl's tables: its objects
 * have none (cosi's placeholder namespace is not theirs).
 */
export function resourceTableColumns(
  group: Pick<ResourceGroup, 'type' | 'definition'>,
  wide: boolean,
  options: { readonly showLabels?: boolean } = {},
): ResourceTableColumns {
  const labels = wide || options.showLabels === true;
  // As kubectl's: a column of priority above 0 only in `-o wide`.
  const columns = (group.definition?.printColumns ?? []).filter(
    (c) => wide || !(c.priority !== undefined && c.priority > 0),
  );
  const sensitive = group.definition?.sensitivity === 'sensitive';
  const displayType = group.definition?.displayType ?? group.type;
  const kind = group.definition?.kubernetes;
  const cells = columns.map((c) => (sensitive ? () => '' : printCell(c, kind)));
  const namespaced = kind?.namespaced !== false;
  const own = [...(namespaced ? ['NAMESPACE'] : []), 'TYPE', 'ID', 'VERSION', 'OWNER', 'PHASE'];
  const trailing = [...(labels ? ['LABELS'] : []), ...(wide ? ['FINALIZERS'] : [])];
  const header = [
    ...own,
    ...printColumnHeaders(columns, displayType, [...own, ...trailing]),
    ...trailing,
  ];
  const row = (r: Resource): string[] => {
    // A built-in kind's columns read the object as the API server stores it, as kubectl's do.
    const spec = cells.length === 0 ? r.spec : withStoredDefaults(r.spec, kind);
    return [
      ...(namespaced ? [r.metadata.namespace] : []),
      displayType,
      r.metadata.id,
      String(r.metadata.version),
      r.metadata.owner || '<none>',
      r.metadata.phase,
      ...cells.map((cell) => cell(spec)),
      ...(labels
        ? [
            Object.entries(r.metadata.labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(',') || '<none>',
          ]
        : []),
      ...(wide ? [r.metadata.finalizers.join(',') || '<none>'] : []),
    ];
  };
  return { header, row };
}

/**
 * The headers of a type's print columns: each one's name in upper case, but one that would repeat
 * a header of the table (cosi's own VERSION, TYPE, ... in `taken`, or an earlier column's) is
 * prefixed by the type's name, as the built-in Service's `SERVICE-TYPE` is: a Prometheus's
 * `Version` column is `PROMETHEUS-VERSION`, so each header names one column (`--no-headers | awk`
 * and a reader can tell them apart), as kubectl shows each once.
 */
export function printColumnHeaders(
  columns: readonly PrintColumn[],
  displayType: string,
  taken: readonly string[],
): string[] {
  const used = new Set(taken);
  return columns.map((column) => {
    const name = column.name.toUpperCase();
    let header = used.has(name) ? `${displayType.toUpperCase()}-${name}` : name;
    for (let n = 2; used.has(header); n++) header = `${name}-${n}`;
    used.add(header);
    return header;
  });
}

/** A column's cell: kubectl's own for a built-in kind's column it writes its way, else its JSONPath's. */
export function printCell(column: PrintColumn, kind: KubernetesKind | undefined): PrintCell {
  if (kind !== undefined) {
    const slash = kind.apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : kind.apiVersion.slice(0, slash);
    const builtin = builtinPrintCell(group, kind.kind, column.name);
    if (builtin !== undefined) return builtin;
  }
  return printColumn(column.jsonPath);
}

/**
 * A print column runs on the spec; as talosctl's, a missing key is an empty cell. Its template
 * is parsed once per table, not once per row.
 */
function printColumn(jsonPath: string): (spec: unknown) => string {
  let template: JsonPathTemplate;
  try {
    template = parseTemplate(jsonPath);
  } catch {
    return () => '<error>';
  }
  return (spec) => {
    try {
      return executeTemplate(template, spec, { allowMissingKeys: true });
    } catch {
      return '<error>';
    }
  };
}
