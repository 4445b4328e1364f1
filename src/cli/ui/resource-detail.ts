import { diffLines } from 'diff';
import { stringify } from 'yaml';
import { explainResource, type Explanation } from '../../app/explain/explain-resource.js';
import type { Resource } from '../../engine/resource/resource.js';
import { historyLine, lineageLines } from '../render/explain/explain-tree.js';
import { toDocument } from '../../app/output-document.js';
import { withholdFields } from '../../app/shown-spec.js';
import { namespaced } from './resource-cells.js';
import type { ResourceRow, RoundView, TypeGroup } from './round-view.js';

/** One line of the detail view, with how to show it. */
export interface DetailLine {
  readonly text: string;
  readonly style?: 'title' | 'added' | 'removed' | 'dim' | 'error' | 'warning';
}

/** Versions of the history the detail shows, the newest. */
const HISTORY_SHOWN = 5;

/**
 * What Enter shows for a resource: its lineage and its last writes, from the explain model on the
 * run's record (what `cosi explain` prints), the diff from the previous round, and its YAML.
 */
export function resourceDetail(
  round: RoundView,
  group: TypeGroup,
  row: ResourceRow,
  options: { readonly stable?: boolean } = {},
): DetailLine[] {
  const { resource } = row;
  const md = resource.metadata;
  const explanation = explain(round, resource);
  const lines: DetailLine[] = [
    {
      // A cluster-scoped kind's object has no namespace (cosi's placeholder is not its own).
      text: `${group.displayType} ${namespaced(group) ? `${md.namespace}/` : ''}${md.id}  (${markerWord(row)})`,
      style: 'title',
    },
    { text: '' },
    { text: 'lineage', style: 'title' },
  ];
  lines.push({ text: `  written by ${md.owner === '' ? 'the manifests' : md.owner}` });
  if (explanation?.lineage) {
    for (const text of lineageLines(explanation.lineage)) lines.push({ text });
  }
  lines.push({ text: '' }, { text: 'last writes', style: 'title' });
  const history = explanation?.history ?? [];
  if (!explanation) lines.push({ text: '  not recorded', style: 'dim' });
  else if (history.length === 0) lines.push({ text: '  none recorded', style: 'dim' });
  for (const entry of [...history].slice(-HISTORY_SHOWN).reverse()) {
    lines.push({ text: `  ${historyLine(entry)}` });
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

/** The explanation of the resource from the round's record; none when the run was not recorded. */
function explain(round: RoundView, resource: Resource): Explanation | undefined {
  if (!round.record || !round.graph) return undefined;
  return explainResource(
    {
      record: round.record,
      resources: round.groups.flatMap((g) => g.rows.map((r) => r.resource)),
      manifests: round.manifest ?? [],
      graph: round.graph,
    },
    resource.metadata,
    { depth: 3 },
  );
}

function yamlOf(resource: Resource, group: TypeGroup, options: { stable?: boolean }): string {
  // A Secret's values are kept back, as the report keeps them back.
  const spec = withholdFields(resource.spec, group.withheld ?? []);
  const document = toDocument({ ...resource, spec }, undefined, options);
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
