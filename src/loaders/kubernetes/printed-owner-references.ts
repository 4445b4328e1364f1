/**
 * A Kubernetes object's owner references as cosi prints them: as `kubectl get -o yaml` does,
 * `apiVersion`, `kind`, `name`, `uid`, then `controller` and `blockOwnerDeletion` when the reference has them, so
 * that the output reads back (`manifest-owner-references.ts` reads this shape), a chainsaw-style
 * assert written the kubectl way matches it, and a diff against a cluster's object is of values,
 * not of shapes. The `uid` is the one the owner prints (`engine/resource/object-uid.ts`): the owner in the
 * object's namespace, or, for a cluster-scoped owner kind, in none.
 *
 * A reference to one of cosi's own types (no Kubernetes kind, so no apiVersion) keeps cosi's shape,
 * `{ type, id, controller?, blockOwnerDeletion? }`, as cosi's own resources print theirs.
 */

import type { KubernetesKind } from '../../engine/resource/definition.js';
import type { OwnerReference } from '../../engine/resource/metadata.js';
import { objectUid } from '../../engine/resource/object-uid.js';

/** The Kubernetes identity of a type (`undefined` for one of cosi's own types). */
export type KubernetesKindOf = (type: string) => KubernetesKind | undefined;

/**
 * The references of an object in `namespace`, each in the Kubernetes shape when `kindOf` knows its
 * owner's kind.
 */
export function printedOwnerReferences(
  references: readonly OwnerReference[],
  namespace: string,
  kindOf: KubernetesKindOf | undefined,
): Record<string, unknown>[] {
  return references.map((reference) => {
    const owner = kindOf?.(reference.type);
    if (owner === undefined) return { ...reference };
    return {
      apiVersion: owner.apiVersion,
      kind: owner.kind,
      name: reference.id,
      uid: objectUid(reference.type, owner.namespaced ? namespace : undefined, reference.id),
      ...(reference.controller === undefined ? {} : { controller: reference.controller }),
      ...(reference.blockOwnerDeletion === undefined
        ? {}
        : { blockOwnerDeletion: reference.blockOwnerDeletion }),
    };
  });
}
