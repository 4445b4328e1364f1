import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ChalkInstance } from 'chalk';
import { structuredPatch } from 'diff';
import type {
  AppliedContent,
  DiffAction,
  KubernetesIdentity,
  ResourceChange,
} from '../../app/state-diff.js';
import { outputYaml } from '../../app/output-yaml.js';
import { escapeControl } from './escape-control.js';

/** One change as `cosi diff -o json` lists it: `diff` is its unified diff, uncolored. */
export interface DiffEntry {
  readonly type: string;
  readonly id: string;
  readonly namespace: string;
  readonly action: DiffAction;
  readonly diff: string;
}

/**
 * Where a resource is in the patch headers: `TYPE/NAMESPACE/ID`, as a path (`TYPE/ID` for a
 * cluster-scoped kind, which has no namespace).
 */
function patchPath(change: ResourceChange): string {
  return change.kubernetes?.namespaced === false
    ? `${change.type}/${change.id}`
    : `${change.type}/${change.namespace}/${change.id}`;
}

function toYaml(
  content: AppliedContent | undefined,
  kubernetes: KubernetesIdentity | undefined,
): string {
  if (content === undefined) return '';
  const shown = kubernetes === undefined ? content : kubernetesObject(content, kubernetes);
  return outputYaml(shown);
}

/**
 * A Kubernetes kind's resource as the object `kubectl diff` shows: `apiVersion`, `kind`,
 * `metadata` (name, namespace unless cluster-scoped, labels, annotations, owner references) and
 * its fields.
 */
function kubernetesObject(
  content: AppliedContent,
  { apiVersion, kind, namespaced }: KubernetesIdentity,
): Record<string, unknown> {
  const { id, namespace, labels, annotations, ownerReferences } = content.metadata;
  const metadata: Record<string, unknown> = { name: id };
  if (namespaced) metadata.namespace = namespace;
  if (labels !== undefined) metadata.labels = labels;
  if (annotations !== undefined) metadata.annotations = annotations;
  if (ownerReferences !== undefined) metadata.ownerReferences = ownerReferences;
  const fields =
    typeof content.spec === 'object' && content.spec !== null && !Array.isArray(content.spec)
      ? (content.spec as Record<string, unknown>)
      : {};
  return { apiVersion, kind, metadata, ...fields };
}

/**
 * The unified diff of one change, as `diff -u -N live/... desired/...` prints it (what
 * `kubectl diff` shows): a `diff` line, the `---` / `+++` headers, then the hunks of the
 * resources' YAML (pointer, labels, annotations, spec), with three lines of context. A created
 * resource is diffed against nothing, a removed one against nothing (both named, as `diff -u -N`
 * names a file one side lacks). Control characters are
 * escaped; `c` colors removals red, additions green, hunk headers cyan (when enabled).
 */
export function formatChangeDiff(change: ResourceChange, c: ChalkInstance): string {
  const where = escapeControl(patchPath(change));
  const oldName = `live/${where}`;
  const newName = `desired/${where}`;
  const patch = structuredPatch(
    oldName,
    newName,
    toYaml(change.live, change.kubernetes),
    toYaml(change.desired, change.kubernetes),
    undefined,
    undefined,
    { context: 3 },
  );
  const lines = [
    c.bold(`diff -u -N ${oldName} ${newName}`),
    // Both sides named, as `diff -u -N` (kubectl diff's) names a file one side lacks.
    c.bold(`--- ${oldName}`),
    c.bold(`+++ ${newName}`),
  ];
  for (const hunk of patch.hunks) {
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    lines.push(c.cyan(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`));
    for (const line of hunk.lines) {
      const text = escapeControl(line);
      lines.push(line.startsWith('-') ? c.red(text) : line.startsWith('+') ? c.green(text) : text);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `cosi diff`'s text output: each change's unified diff, one after the other. */
export function renderDiffText(changes: readonly ResourceChange[], c: ChalkInstance): string {
  return changes.map((change) => formatChangeDiff(change, c)).join('');
}

/** The entries of `cosi diff -o json`. */
export function toDiffEntries(
  changes: readonly ResourceChange[],
  plain: ChalkInstance,
): DiffEntry[] {
  return changes.map((change) => ({
    type: change.type,
    id: change.id,
    namespace: change.namespace,
    action: change.action,
    diff: formatChangeDiff(change, plain),
  }));
}

/** `2 to create, 1 to change, 0 to remove`. */
export function summarizeChanges(changes: readonly ResourceChange[]): string {
  const count = (action: DiffAction): number => changes.filter((c) => c.action === action).length;
  return `${count('create')} to create, ${count('change')} to change, ${count('remove')} to remove`;
}

/**
 * Writes each change's two sides as files, `live/TYPE/NS/ID` and `desired/TYPE/NS/ID` under
 * `dir` (`TYPE/ID` for a cluster-scoped kind; the side a change lacks is not written), for a
 * diff program of the user's to compare
 * the two trees, as `kubectl diff` does for `KUBECTL_EXTERNAL_DIFF`.
 */
export function writeDiffTrees(changes: readonly ResourceChange[], dir: string): void {
  const segment = (text: string): string => {
    const encoded = encodeURIComponent(text);
    return encoded === '.' || encoded === '..' ? encoded.replaceAll('.', '%2E') : encoded;
  };
  for (const side of ['live', 'desired'] as const) {
    mkdirSync(path.join(dir, side), { recursive: true });
    for (const change of changes) {
      const content = change[side];
      if (content === undefined) continue;
      const folder =
        change.kubernetes?.namespaced === false
          ? path.join(dir, side, segment(change.type))
          : path.join(dir, side, segment(change.type), segment(change.namespace));
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, segment(change.id)), toYaml(content, change.kubernetes));
    }
  }
}
