import { deepEqual } from '../resource/plain-data.js';
import type { Resource } from '../resource/resource.js';

/**
 * Whether `before` -> `after` of a running resource changed its finalizers and nothing else a
 * reconcile reads (spec, labels, annotations, owner, owner references, phase), and kept the
 * finalizer `own` if it was there: the change a controller that reads of its running inputs'
 * finalizers only whether its own is there need not wake for (`skipFinalizerOnlyRequeue`,
 * `skipFinalizerOnlyWakeups`). Another controller's finalizer on the same input is such a
 * change, and so is the controller's own, once written.
 */
export function isFinalizerOnlyChange(before: Resource, after: Resource, own: string): boolean {
  const was = before.metadata;
  const now = after.metadata;
  return (
    was.phase === 'running' &&
    now.phase === 'running' &&
    now.owner === was.owner &&
    (!was.finalizers.includes(own) || now.finalizers.includes(own)) &&
    !sameFinalizers(was.finalizers, now.finalizers) &&
    sameData(after.spec, before.spec) &&
    sameData(now.labels, was.labels) &&
    sameData(now.annotations, was.annotations) &&
    sameData(now.ownerReferences, was.ownerReferences)
  );
}

/** The same set of finalizers (a stored list holds no duplicates). */
function sameFinalizers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((f) => b.includes(f));
}

/**
 * The same data: the same object (the in-memory state shares everything a finalizer change does
 * not touch), or equal ones (a state that decodes every version anew, as etcd's does).
 */
function sameData(a: unknown, b: unknown): boolean {
  return a === b || deepEqual(a, b);
}
