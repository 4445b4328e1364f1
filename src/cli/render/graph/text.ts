import { pointerKey } from '../../../engine/resource/pointer.js';
import { displayWidth, padDisplay } from '../display-width.js';
import { isOutputKind } from '../../../engine/runtime/controller.js';
import { findCycles } from './graph-cycles.js';
import { inputTarget, resourceLabel, viaLabel, writerLabel } from './graph-labels.js';
import { placeText } from '../scoped-pointer.js';
import type { GraphView } from './graph-view.js';
import type { ResourceGraphDag } from '../../../app/declared-controllers.js';
import type { LineageVia, ResourceNode } from '../../../app/explain/resource-lineage.js';
import { plural } from '../plural.js';

/**
 * The default format: per controller what it reads and writes; a summary with the types no
 * controller writes and the cycles; then, with `--resources`, each instance with its writer and
 * the resources it came from and led to. What failed in the run is marked `(failed)`.
 */
export function renderGraphText(view: GraphView): string {
  const blocks: string[] = [];
  for (const controller of view.controllers) {
    const edges = view.edges.filter((e) => e.controller === controller.name);
    const rows: string[][] = [];
    const reads = edges.filter((e) => !isOutputKind(e.kind));
    const writes = edges.filter((e) => isOutputKind(e.kind));
    reads.forEach((e, i) => rows.push([i === 0 ? 'reads' : '', e.kind, inputTarget(e)]));
    writes.forEach((e, i) => rows.push([i === 0 ? 'writes' : '', e.kind, e.type]));
    // An RGD's controller writes the status of the instances it reads: not a loop.
    for (const s of view.statusWrites ?? []) {
      if (s.controller !== controller.name) continue;
      rows.push([
        writes.length === 0 ? 'writes' : '',
        'status',
        `${s.type} (of the instances it reads)`,
      ]);
    }
    const failed = view.failedControllers?.includes(controller.name) === true ? '  (failed)' : '';
    const title =
      (controller.kind === 'qcontroller'
        ? `${controller.name}  (queue controller)`
        : controller.name) + failed;
    const dag = view.resourceGraphs?.find((d) => d.controller === controller.name);
    blocks.push([title, ...alignColumns(rows, '  '), ...(dag ? dagLines(dag) : [])].join('\n'));
  }
  blocks.push(summary(view).join('\n'));
  if (view.resources) blocks.push(resources(view).join('\n'));
  return `${blocks.join('\n\n')}\n`;
}

/** An RGD's resources in render order, each with what it waits for. */
function dagLines(dag: ResourceGraphDag): string[] {
  const rows = dag.resources.map((r, i) => [
    i === 0 ? 'renders' : '',
    r.id,
    r.type,
    [...(r.dependsOn.length > 0 ? [`after ${r.dependsOn.join(', ')}`] : []), ...r.notes].join('; '),
  ]);
  return alignColumns(rows, '  ');
}

function summary(view: GraphView): string[] {
  const lines = [
    `${plural(view.controllers.length, 'controller')}, ${plural(view.types.length, 'type')}, ${plural(view.edges.length, 'edge')}`,
  ];
  if (view.sourceTypes.length > 0) {
    lines.push(`written by no controller: ${view.sourceTypes.join(', ')}`);
  }
  for (const cycle of findCycles(view)) {
    lines.push(`cycle: ${cycle.map((n) => n.name).join(' -> ')}`);
  }
  return lines;
}

function resources(view: GraphView): string[] {
  const lines = ['Resources'];
  const derived = new Map<string, { node: ResourceNode; via: LineageVia }[]>();
  for (const group of view.resources ?? []) {
    for (const node of group.resources) {
      for (const source of node.derivedFrom) {
        const list = derived.get(pointerKey(source));
        if (list) list.push({ node, via: source.via });
        else derived.set(pointerKey(source), [{ node, via: source.via }]);
      }
    }
  }
  for (const group of view.resources ?? []) {
    lines.push('', group.type);
    for (const node of group.resources) {
      const phase = node.phase === 'running' ? '' : `  (${node.phase})`;
      const failed = node.failed === true ? '  (failed)' : '';
      lines.push(`  ${placeText(node)}  ${writerLabel(node)}${phase}${failed}`);
      const links = [
        ...node.derivedFrom.map((s) => ['from', resourceLabel(s), viaLabel(s.via)]),
        ...(derived.get(pointerKey(node)) ?? []).map((d) => [
          'to',
          resourceLabel(d.node),
          viaLabel(d.via),
        ]),
      ];
      lines.push(...alignColumns(links, '    '));
    }
  }
  return lines;
}

/** Rows of cells, each column padded to its widest cell, two spaces apart. */
function alignColumns(rows: readonly (readonly string[])[], indent: string): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === row.length - 1 ? cell : padDisplay(cell, widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
  );
}
