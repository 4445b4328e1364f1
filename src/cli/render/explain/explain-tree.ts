import type { Explanation } from '../../../app/explain/explain-resource.js';
import type { FieldBlame, VersionEntry } from '../../../app/explain/history.js';
import type { LineageNode, VersionOrigin } from '../../../app/explain/lineage.js';
import type { WhyNotWriter } from '../../../app/explain/why-not.js';
import type { CycleStep } from '../../../app/explain/write-cycle.js';
import { failureLines, statusLines } from './explain-status.js';
import { pointerText, versionRefText } from '../scoped-pointer.js';
import { formatVersionRef } from '../../../engine/record/run-record.js';

/** Versions the tree shows, the newest. */
const HISTORY_SHOWN = 10;

/**
 * `cosi explain -o tree`: the resource, its status and conditions, the reconciles of it that
 * failed, its lineage as a tree whose edges say why they exist
 * (the input kind, an owner reference, a finalizer), what it feeds (`--reverse`), its versions,
 * who set each field, the cycle of writes of a resource that kept changing, and, for a resource
 * that is not there, what stopped each controller that could write it.
 */
export function renderExplainTree(explanation: Explanation): string {
  const lines: string[] = [];
  const { pointer, resource } = explanation;
  const scoped = { ...pointer, clusterScoped: explanation.clusterScoped === true };
  lines.push(
    resource
      ? `${versionRefText({ ...scoped, version: resource.metadata.version })}  owner: ${ownerText(explanation)}  phase: ${resource.metadata.phase}`
      : `${pointerText(scoped)}  does not exist`,
  );
  const rendered = explanation.renderedBy;
  if (rendered) {
    const template = rendered.template === undefined ? '' : `, template ${rendered.template}`;
    lines.push(
      `rendered from: ResourceGraphDefinition ${rendered.graph}, resource ${rendered.resource}${template}`,
    );
    if (rendered.notReady !== undefined) lines.push(`not ready: ${rendered.notReady}`);
  }
  if (explanation.truncated) {
    lines.push('note: history truncated: the record dropped its oldest reconciles');
  }
  if (explanation.status) lines.push('', ...statusLines(explanation.status));
  if (explanation.failures.length > 0) lines.push('', ...failureLines(explanation.failures));
  if (explanation.lineage) {
    lines.push('', resource ? 'lineage (where it came from)' : 'lineage of its last version');
    lines.push(...lineageLines(explanation.lineage));
  }
  if (explanation.feeds) {
    lines.push('', 'feeds (what it is an input of)');
    lines.push(...lineageLines(explanation.feeds));
  }
  if (explanation.history.length > 0) {
    lines.push('', 'history');
    const earlier = explanation.history.length - HISTORY_SHOWN;
    if (earlier > 0) lines.push(`  … ${earlier} earlier versions (-o json has them all)`);
    for (const entry of explanation.history.slice(-HISTORY_SHOWN)) {
      lines.push(`  ${historyLine(entry)}`);
    }
  }
  if (explanation.fields.length > 0) {
    lines.push('', 'fields (the write that set each last)');
    const width = Math.max(...explanation.fields.map((f) => f.field.length));
    for (const blame of explanation.fields) {
      lines.push(`  ${blame.field.padEnd(width)}  ${blameText(blame)}`);
    }
  }
  if (explanation.cycle.length > 0) {
    lines.push('', 'cycle of writes (it keeps changing)');
    lines.push(...cycleLines(explanation.cycle));
  }
  if (explanation.whyNot) lines.push('', 'why not', ...whyNotLines(explanation.whyNot));
  return `${lines.join('\n')}\n`;
}

/**
 * The owner, or who made an unowned resource: a controller's create (an RGD's nested kro
 * instance) is `(unowned, created by …)`, a manifest's `(manifest)`.
 */
function ownerText(explanation: Explanation): string {
  const owner = explanation.resource?.metadata.owner ?? '';
  if (owner !== '') return owner;
  const first = explanation.history[0];
  if (first?.version === 1 && first.by.kind === 'reconcile') {
    return `(unowned, created by ${first.by.controller})`;
  }
  return '(manifest)';
}

/** The lineage tree: the root, then each edge as `kind: resource@version  <- origin`. */
export function lineageLines(root: LineageNode): string[] {
  const lines = [`  ${nodeText(root)}  ${originText(root.origin)}${cutText(root)}`];
  const walk = (node: LineageNode, prefix: string): void => {
    node.edges.forEach((edge, i) => {
      const last = i === node.edges.length - 1;
      lines.push(
        `  ${prefix}${last ? '└─' : '├─'} ${edge.kind}: ${nodeText(edge.node)}  ${originText(edge.node.origin)}${cutText(edge.node)}`,
      );
      walk(edge.node, `${prefix}${last ? '   ' : '│  '}`);
    });
  };
  walk(root, '');
  return lines;
}

/** A lineage node's version, `Type(id)@v` when its kind is cluster-scoped. */
function nodeText(node: LineageNode): string {
  return versionRefText({ ...node.ref, clusterScoped: node.clusterScoped === true });
}

function cutText(node: LineageNode): string {
  if (node.cut === 'depth') return '  (… --depth)';
  if (node.cut === 'cycle') return '  (cycle)';
  return '';
}

export function originText(origin: VersionOrigin): string {
  switch (origin.kind) {
    case 'manifest':
      return origin.position
        ? `<- manifest ${origin.position.file}:${origin.position.line}:${origin.position.col}`
        : '<- manifest';
    case 'reconcile':
      return `<- ${origin.controller} reconcile #${origin.seq}`;
    case 'unknown':
      return '<- (not in the record)';
  }
}

export function historyLine(entry: VersionEntry): string {
  const fields = entry.fields.length > 0 ? `  changed ${entry.fields.join(', ')}` : '';
  if (entry.by.kind === 'manifest') {
    const p = entry.by.position;
    return `v${entry.version}  manifest${p ? ` ${p.file}:${p.line}:${p.col}` : ''}`;
  }
  const triggers =
    entry.by.triggers.length > 0
      ? `  triggered by ${entry.by.triggers.map((ref) => versionRefText(ref)).join(', ')}`
      : '';
  return `v${entry.version}  ${entry.by.op} by ${entry.by.controller} reconcile #${entry.by.seq}${fields}${triggers}`;
}

function blameText(blame: FieldBlame): string {
  switch (blame.by.kind) {
    case 'manifest': {
      const { file, line, col } = blame.by.position;
      const at = blame.by.defaultAt === undefined ? '' : ` at ${blame.by.defaultAt}`;
      return `manifest ${file}:${line}:${col}${blame.by.schemaDefault === true ? `  default of its schema${at}` : ''}`;
    }
    case 'reconcile': {
      const by = `v${blame.version} ${blame.by.controller} reconcile #${blame.by.seq}`;
      if (blame.by.kindDefault === true) return `${by}  default of its kind (the API server's)`;
      const observed = blame.by.observed;
      if (observed !== undefined) {
        const at = observed.at;
        return `${by}  observed status${at === undefined ? '' : ` ${at.file}:${at.line}:${at.col}`}`;
      }
      const template = blame.by.template;
      if (template === undefined) return by;
      const expressions = template.expressions.map((e) => `\${${e}}`).join(' ');
      return `${by}  template ${template.location}${expressions === '' ? '' : ` ${expressions}`}`;
    }
    case 'unknown':
      return '(not in the record)';
  }
}

/** "A wrote x, which triggered B, which wrote y, which triggered A ...". */
export function cycleLines(cycle: readonly CycleStep[]): string[] {
  const lines: string[] = [];
  cycle.forEach((step, i) => {
    const what = `${formatVersionRef(step.wrote)}${step.fields.length > 0 ? ` (${step.fields.join(', ')})` : ''}`;
    lines.push(
      i === 0
        ? `  ${step.controller} (reconcile #${step.seq}) wrote ${what},`
        : `  which triggered ${step.controller} (reconcile #${step.seq}), which wrote ${what},`,
    );
  });
  const first = cycle[0];
  if (first) lines.push(`  which triggered ${first.controller} again: the cycle repeats`);
  return lines;
}

function whyNotLines(writers: readonly WhyNotWriter[]): string[] {
  if (writers.length === 0) return ['  no controller declares this type as an output'];
  return writers.flatMap((w) => [
    `  ${w.controller}`,
    ...w.findings.map((f) => {
      const at = f.position ? `  (${f.position.file}:${f.position.line}:${f.position.col})` : '';
      return `    ${f.reason}: ${f.message}${at}`;
    }),
  ]);
}
