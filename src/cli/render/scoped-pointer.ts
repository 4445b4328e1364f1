/**
 * A resource's place as the outputs print it. A cluster-scoped kind's objects are kept in
 * namespace `default` (the store has no cluster scope), but they are in no namespace: they print
 * as `NAME`, `Type(NAME)`, as kubectl has them, not `default/NAME`.
 */

import type { Pointer } from '../../engine/resource/pointer.js';

/** A pointer that may say its kind is cluster-scoped. */
export interface ScopedPointer extends Pointer {
  readonly clusterScoped?: boolean;
}

/** `namespace/id`, or `id` for a cluster-scoped kind's object. */
export const placeText = (p: ScopedPointer): string =>
  p.clusterScoped === true ? p.id : `${p.namespace}/${p.id}`;

/** `Type(namespace/id)`, or `Type(id)` for a cluster-scoped kind's object. */
export const pointerText = (p: ScopedPointer): string => `${p.type}(${placeText(p)})`;

/** `Type(namespace/id)@version`, or `Type(id)@version` for a cluster-scoped kind's object. */
export const versionRefText = (ref: ScopedPointer & { readonly version: number }): string =>
  `${pointerText(ref)}@${ref.version}`;
