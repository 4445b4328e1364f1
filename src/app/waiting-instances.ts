/**
 * The `rgd-waiting` warnings of a run: each kro RGD instance still in progress because an
 * expression reads status that no controller here writes (a Deployment's `availableReplicas`),
 * at the instance's manifest, naming what it waits on (its `Ready` condition's message).
 */

import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { formatPointer, pointerKey } from '../engine/resource/pointer.js';
import type { StateSnapshot } from '../engine/state/state-snapshot.js';
import { AWAITING_PREFIX } from '../controllers/resource-graph.js';
import { OBSERVED_ANNOTATION } from '../engine/resource/observed-status.js';
import { createFinding, type Finding } from '../loaders/finding.js';
import { resourceGraphOf } from '../loaders/kro/resource-graph-definition.js';
import type { ManifestSource } from '../loaders/manifest-resource.js';

/** A warning for each RGD instance that waits, at its manifest (nested ones: at no file). */
export function waitingInstanceFindings(
  snapshot: StateSnapshot,
  registry: DefinitionRegistry,
  sources: ReadonlyMap<string, ManifestSource>,
): Finding[] {
  const findings: Finding[] = [];
  for (const resource of snapshot.resources) {
    const definition = registry.get(resource.metadata.type);
    if (definition === undefined || resourceGraphOf(definition) === undefined) continue;
    const waiting = waitingMessage((resource.spec as { status?: unknown }).status);
    if (waiting === undefined) continue;
    const source = sources.get(pointerKey(resource.metadata));
    findings.push(
      createFinding({
        code: 'rgd-waiting',
        message: `${formatPointer(resource.metadata)} stays in progress: ${waitingHint(waiting)}`,
        file: source?.file ?? '',
        line: source?.line ?? 0,
        col: source?.col ?? 0,
        pointer: '',
      }),
    );
  }
  return findings;
}

/**
 * What an instance waits on, and what to do: a field of its own spec that is not set is the
 * user's to give (or the schema's to default); anything else is status no controller here writes.
 */
function waitingHint(waiting: string): string {
  const own = /\$\{\s*schema\.spec\.([A-Za-z_][\w.]*)/.exec(waiting)?.[1];
  if (own !== undefined && waiting.includes('(no such key: spec)')) {
    // No spec at all: kro defaults it to {} only when no field of it is required, so the
    // schema's defaults of its fields never apply.
    return `it reads spec.${own}, and the instance has no spec: ${waiting} (give the instance a spec: its RGD's schema requires a field of it, so spec has no default and neither have its fields)`;
  }
  if (own !== undefined && waiting.includes('no such key')) {
    return `it reads spec.${own}, which it does not set: ${waiting} (set it in the instance, or give the field a default in the RGD's schema: \`${own.split('.').pop() ?? own}: string | default=...\`)`;
  }
  // A resource the RGD writes cannot also be a manifest (output-collision), nor can another
  // controller write its status (it is the RGD's): the status a cluster would report is given
  // as an observed object. Only an externalRef, which the RGD reads, can be given as a manifest.
  const external = /externalRef \S+ \([^)]*\) does not exist/.test(waiting);
  return `it waits on what no controller writes here: ${waiting} (${external ? 'give the resource the externalRef names as a manifest, or write it with a controller' : `give the status a cluster would report as a manifest of that object annotated ${OBSERVED_ANNOTATION}: "true", with its status`})`;
}

/** The message of a `Ready` condition that waits, in an instance's status. */
function waitingMessage(status: unknown): string | undefined {
  if (typeof status !== 'object' || status === null) return undefined;
  const conditions = (status as { conditions?: unknown }).conditions;
  if (!Array.isArray(conditions)) return undefined;
  for (const condition of conditions as unknown[]) {
    if (typeof condition !== 'object' || condition === null) continue;
    const { type, reason, message } = condition as Record<string, unknown>;
    if (
      type === 'Ready' &&
      reason === 'NotReady' &&
      typeof message === 'string' &&
      message.startsWith(AWAITING_PREFIX)
    ) {
      return message.slice(AWAITING_PREFIX.length);
    }
  }
  return undefined;
}
