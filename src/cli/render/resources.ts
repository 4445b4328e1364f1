import { stringify } from 'yaml';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { Resource } from '../../engine/resource/resource.js';
import { evaluateTemplate } from './jsonpath.js';
import { toDocument, type DocumentOptions } from './resource-document.js';
import { renderTable } from './table.js';

/** The output formats of commands that print resources. */
export type ResourceFormat = 'table' | 'yaml' | 'json' | { readonly jsonpath: string };

/** Resources of one type, with its definition (if it has one). */
export interface ResourceGroup {
  readonly type: string;
  readonly definition: ResourceDefinition | undefined;
  readonly resources: readonly Resource[];
}

/** How resources are printed. */
export interface RenderOptions extends DocumentOptions {
  /** One resource was asked for by id: JSON prints it as an object, not a list of one. */
  readonly single?: boolean;
}

/** Prints groups of resources in a format. Deterministic: groups and resources come sorted. */
export function renderResources(
  groups: readonly ResourceGroup[],
  format: ResourceFormat,
  options: RenderOptions = {},
): string {
  if (format === 'table') return renderResourceTables(groups);
  const documents = groups.flatMap((g) =>
    g.resources.map((r) => toDocument(r, g.definition, options)),
  );
  if (format === 'yaml') {
    return documents
      .map((d) => `---\n${stringify(d, { lineWidth: 0, aliasDuplicateObjects: false })}`)
      .join('');
  }
  if (format === 'json') {
    const value = options.single && documents.length === 1 ? documents[0] : documents;
    return `${JSON.stringify(value, null, 2)}\n`;
  }
  const target = documents.length === 1 ? documents[0] : documents;
  return `${evaluateTemplate(format.jsonpath, target)}\n`;
}

/** One table per type, as `talosctl get`: NAMESPACE TYPE ID VERSION OWNER PHASE + print columns. */
function renderResourceTables(groups: readonly ResourceGroup[]): string {
  const tables: string[] = [];
  for (const group of groups) {
    if (group.resources.length === 0) continue;
    const columns = group.definition?.printColumns ?? [];
    const sensitive = group.definition?.sensitivity === 'sensitive';
    const displayType = group.definition?.displayType ?? group.type;
    const header = [
      'NAMESPACE',
      'TYPE',
      'ID',
      'VERSION',
      'OWNER',
      'PHASE',
      ...columns.map((c) => c.name.toUpperCase()),
    ];
    const rows = group.resources.map((r) => [
      r.metadata.namespace,
      displayType,
      r.metadata.id,
      String(r.metadata.version),
      r.metadata.owner,
      r.metadata.phase,
      ...columns.map((c) => (sensitive ? '' : printColumn(c.jsonPath, r.spec))),
    ]);
    tables.push(renderTable(header, rows));
  }
  return tables.join('\n');
}

function printColumn(jsonPath: string, spec: unknown): string {
  try {
    return evaluateTemplate(jsonPath, spec);
  } catch {
    return '<error>';
  }
}
