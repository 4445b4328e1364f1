import { shareEmptyCollections, type OwnerReference } from '../engine/resource/metadata.js';
import type { Pointer } from '../engine/resource/pointer.js';
import type { Draft } from '../engine/resource/resource.js';
import { defineOwn } from '../engine/resource/plain-data.js';

/**
 * The draft of a loaded manifest resource: what `newResource` makes, but built here, by the
 * loader's own object literals.
 *
 * V8 decides per allocation site (an object literal) whether to allocate its objects straight
 * in the old generation, from how many of them outlived earlier collections. A load's drafts
 * live for the whole run; the engine's drafts (a controller's `mapMetadata` output, written
 * once and dropped) live for a moment. Made by the same literal, the long-lived load taught V8
 * to put every later engine draft in the old generation, where each one stayed as garbage until
 * the next full collection: some 50 MB of the peak of converging 50,000 manifests.
 */
export function manifestDraft<S>(
  pointer: Pointer,
  spec: S,
  labels: Readonly<Record<string, string>>,
  annotations: Readonly<Record<string, string>>,
  /** A Kubernetes-shaped manifest's owners (see `manifest-owner-references.ts`). */
  ownerReferences: OwnerReference[] = [],
): Draft<S> {
  const metadata = {
    namespace: pointer.namespace,
    type: pointer.type,
    id: pointer.id,
    version: 0,
    generation: 0,
    owner: '',
    phase: 'running' as const,
    finalizers: [] as string[],
    labels: copyEntries(labels),
    annotations: copyEntries(annotations),
    created: 0,
    updated: 0,
    ownerReferences,
  };
  // A large load holds many resources, most without labels or the rest: they share empties.
  return { metadata: shareEmptyCollections(metadata), spec };
}

/** A fresh copy (the document's own object may be shared with its parse). */
function copyEntries(record: Readonly<Record<string, string>>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const key of Object.keys(record)) defineOwn(copy, key, record[key]);
  return copy;
}
