import { deepEqual } from '../resource/plain-data.js';
import type { ResourceEvent } from '../state/state.js';
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

/** What the facade announces before an own `addFinalizer` writes (see `skipOwnFinalizerRequeue`). */
export interface OwnFinalizerWrite {
  readonly version: number;
  readonly finalizers: readonly string[];
}

/** Whether the event is exactly the announced write: version v, our finalizers added alone. */
export function isOwnFinalizerEcho(event: ResourceEvent, write: OwnFinalizerWrite): boolean {
  if (event.type !== 'updated' || event.resource.metadata.version !== write.version) return false;
  const now = event.resource.metadata;
  const was = event.old.metadata;
  return (
    was.version === write.version - 1 &&
    now.phase === was.phase &&
    now.owner === was.owner &&
    addsExactly(was.finalizers, now.finalizers, write.finalizers) &&
    sameData(event.resource.spec, event.old.spec) &&
    sameData(now.labels, was.labels) &&
    sameData(now.annotations, was.annotations) &&
    sameData(now.ownerReferences, was.ownerReferences)
  );
}

/** Whether `after` is `before` plus the `added` finalizers it did not have, and nothing else. */
function addsExactly(
  before: readonly string[],
  after: readonly string[],
  added: readonly string[],
): boolean {
  // The usual case, one finalizer added to a handful (a stored set: no duplicates): no set built.
  if (added.length === 1) {
    const f = added[0] as string;
    if (after.length !== before.length + 1 || before.includes(f)) return false;
    for (const x of after) if (x !== f && !before.includes(x)) return false;
    return true;
  }
  const expected = new Set(before);
  for (const f of added) expected.add(f);
  if (after.length !== expected.size || expected.size === before.length) return false;
  return after.every((f) => expected.has(f));
}

/**
 * The same data: the same object (the in-memory state shares everything a finalizer change does
 * not touch), or equal ones (a state that decodes every version anew, as etcd's does).
 */
function sameData(a: unknown, b: unknown): boolean {
  return a === b || deepEqual(a, b);
}
