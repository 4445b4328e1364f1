import { diffLines } from 'diff';
import { stringify } from 'yaml';
import { formatPointer, pointerKey } from '../../engine/resource/pointer.js';
import type { Resource } from '../../engine/resource/resource.js';
import { traceLineage } from '../render/graph/resource-lineage.js';
import { toDocument } from '../render/resource-document.js';
import { rowKey, type ResourceRow, type RoundView, type TypeGroup } from './round-view.js';

/** One line of the detail view, with how to show it. */
export interface DetailLine {
  readonly text: string;
  readonly style?: 'title' | 'added' | 'removed' | 'dim';
}

/**
 * What Enter shows for a resource: its lineage (the controller that wrote it and the resources
 * it was derived from, as `cosi graph --resources` traces them), its last writes seen by the
 * view, the diff from the previous round, and its YAML.
 */
export function resourceDetail(
  round: RoundView,
  group: TypeGroup,
  row: ResourceRow,
  options: { readonly stable?: boolean } = {},
): DetailLine[] {
  const { resource } = row;
  const key = rowKey(row);
  const md = resource.metadata;
  const lines: DetailLine[] = [
    { text: `${group.displayType} ${md.namespace}/${md.id}  (${markerWord(row)})`, style: 'title' },
    { text: '' },
    { text: 'lineage', style: 'title' },
  ];
  lines.push({ text: `  written by ${md.owner === '' ? 'the manifests' : md.owner}` });
  if (round.graph) {
    const all = round.groups.flatMap((g) => g.rows.map((r) => r.resource));
    const node = traceLineage(all, round.graph).find((n) => pointerKey(n) === key);
    for (const source of node?.derivedFrom ?? []) {
      lines.push({ text: `  from ${formatPointer(source)}  (${source.via})` });
    }
  }
  lines.push({ text: '' }, { text: 'last writes', style: 'title' });
  const writes = round.writes.get(key) ?? [];
  if (writes.length === 0) lines.push({ text: '  none seen since the view started', style: 'dim' });
  for (const w of [...writes].reverse()) {
    lines.push({
      text: `  round ${w.round}  ${w.marker}  version ${w.version}  by ${w.owner === '' ? 'the manifests' : w.owner}`,
    });
  }
  lines.push({ text: '' }, { text: 'diff from the previous round', style: 'title' });
  if (row.marker === '~' && row.previous) {
    for (const part of diffLines(
      yamlOf(row.previous, group, options),
      yamlOf(resource, group, options),
    )) {
      const style = part.added ? 'added' : part.removed ? 'removed' : 'dim';
      const sign = part.added ? '+ ' : part.removed ? '- ' : '  ';
      for (const text of part.value.replace(/\n$/, '').split('\n')) {
        lines.push({ text: `  ${sign}${text}`, style });
      }
    }
  } else {
    lines.push({ text: `  ${markerWord(row)}`, style: 'dim' });
  }
  lines.push({ text: '' }, { text: 'yaml', style: 'title' });
  for (const text of yamlOf(resource, group, options).replace(/\n$/, '').split('\n')) {
    lines.push({ text: `  ${text}` });
  }
  return lines;
}

function yamlOf(resource: Resource, group: TypeGroup, options: { stable?: boolean }): string {
  const document = toDocument(resource, undefined, options);
  // Sensitive types print no spec, as `cosi get` prints them.
  if (group.sensitive) delete document.spec;
  return stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
}

function markerWord(row: ResourceRow): string {
  switch (row.marker) {
    case '+':
      return 'created this round';
    case '-':
      return 'destroyed this round';
    case '~':
      return 'updated this round';
    case ' ':
      return 'unchanged this round';
  }
}
