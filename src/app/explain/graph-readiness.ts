/**
 * What a kro instance's `ResourcesReady` condition says of its resources (which wait, on what,
 * and which failed), with each `readyWhen` at its place in the RGD.
 */

import type { GraphNode } from '../../controllers/compiled-resource-graph.js';
import type { Resource } from '../../engine/resource/resource.js';

const AWAITING = 'awaiting resource readiness: ';
const FAILED = 'resource error: ';

/**
 * What the instance's condition says a resource waits on, with its `readyWhen` expressions'
 * `file:line:col` (as a left-out resource's `includeWhen` has them): `readyWhen ${a} (rgd.yaml:27:9)
 * (no such key: status)`, `readyWhen ${a} (rgd.yaml:27:9) is false`.
 */
export function locateReadyWhen(node: GraphNode, why: string): string {
  if (!why.startsWith('readyWhen ') || node.readyWhen.length === 0) return why;
  let located = why;
  for (const expression of node.readyWhen) {
    const written = `\${${expression.source}}`;
    const at = located.indexOf(written);
    if (at < 0) continue;
    const end = at + written.length;
    located = `${located.slice(0, end)} (${expression.location})${located.slice(end)}`;
  }
  if (located !== why || why !== 'readyWhen is false') return located;
  const conditions = node.readyWhen.map((e) => `\${${e.source}} (${e.location})`).join(', ');
  return `readyWhen ${conditions} is false`;
}

/**
 * What the instance's `ResourcesReady` condition says: the resources it waits on and those
 * that failed, each `id: why` (`resource id: why` for a failure).
 */
export function readiness(instance: Resource): { waits: string[]; errors: string[] } {
  const spec = instance.spec as { status?: { conditions?: unknown } } | undefined;
  const conditions = Array.isArray(spec?.status?.conditions) ? spec.status.conditions : [];
  const ready = conditions.find(
    (c): c is { message: string } =>
      typeof c === 'object' &&
      c !== null &&
      (c as { type?: unknown }).type === 'ResourcesReady' &&
      typeof (c as { message?: unknown }).message === 'string',
  );
  const message = ready?.message ?? '';
  if (message.startsWith(AWAITING))
    return { waits: message.slice(AWAITING.length).split('; '), errors: [] };
  if (message.startsWith(FAILED))
    return { waits: [], errors: message.slice(FAILED.length).split('; ') };
  return { waits: [], errors: [] };
}
