/**
 * A resource's generation: how many times what is asked of it has changed, Kubernetes'
 * `metadata.generation`, which controllers compare with the `observedGeneration` they report.
 * The state stamps it as it stamps the version:
 *
 * - 1 when the resource is created;
 * - one more on a write that changes the spec, other than its top-level `status` field (what a
 *   controller observed, not what was asked: the status subresource's rule, which the API server
 *   applies to every kind that has one, built-in or custom);
 * - one more when its teardown starts, as the API server counts a `deletionTimestamp` set on an
 *   object that finalizers hold;
 * - the same on a write of metadata alone (labels, annotations, finalizers, owner references).
 *
 * COSI has no generation (its resources keep status in resources of their own type); cosi keeps
 * one so that Kubernetes-shaped objects print and read it as a cluster writes them, and so that a
 * controller can tell a spec change from any other write.
 */

import { deepEqual, isRecord } from './plain-data.js';
import type { Phase } from './metadata.js';
import type { Resource } from './resource.js';

/** The generation of the version written over `current` with `spec` in `phase`. */
export function nextGeneration(current: Resource, spec: unknown, phase: Phase): number {
  const { generation } = current.metadata;
  if (phase === 'tearingDown' && current.metadata.phase !== 'tearingDown') return generation + 1;
  return desiredChanged(current.spec, spec) ? generation + 1 : generation;
}

/** Whether two specs differ in anything but their top-level `status`. */
function desiredChanged(before: unknown, after: unknown): boolean {
  if (before === after) return false;
  if (!isRecord(before) || !isRecord(after)) return !deepEqual(before, after);
  for (const key in after) {
    if (!hasOwn(after, key) || key === 'status') continue;
    if (!hasOwn(before, key) || !deepEqual(before[key], after[key])) return true;
  }
  for (const key in before) {
    if (hasOwn(before, key) && key !== 'status' && !hasOwn(after, key)) return true;
  }
  return false;
}

function hasOwn(record: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}
