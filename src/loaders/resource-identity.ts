/**
 * The identity duplicates are told by. A Kubernetes object is one object whichever API version
 * a document writes it in: the API server stores it once, under its group and resource
 * (`horizontalpodautoscalers.autoscaling`), and each served version is a view of it. cosi gives
 * each served version a type of its own (`HorizontalPodAutoscalers.v1.autoscaling`), so a
 * resource's key alone would take `autoscaling/v1` and `autoscaling/v2` `default/web` for two.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import { pointerKey, type Pointer } from '../engine/resource/pointer.js';

/**
 * The type every served version of a definition's kind shares: its plural and its group
 * (`HorizontalPodAutoscalers.autoscaling`, `Widgets.example.com`, `ConfigMaps.core`); a cosi
 * type's own. Each version's type is `Plural.group` or `Plural.version.group`.
 */
export function storageType(definition: ResourceDefinition): string {
  const kubernetes = definition.kubernetes;
  if (kubernetes === undefined) return definition.type;
  const slash = kubernetes.apiVersion.lastIndexOf('/');
  const group = slash < 0 ? 'core' : kubernetes.apiVersion.slice(0, slash);
  const plural = definition.type.slice(0, definition.type.indexOf('.'));
  return `${plural}.${group}`;
}

/** The key of a resource's identity: its `pointerKey` with the type every version shares. */
export function identityKey(pointer: Pointer, definition: ResourceDefinition): string {
  const type = storageType(definition);
  return pointerKey(
    type === pointer.type ? pointer : { namespace: pointer.namespace, type, id: pointer.id },
  );
}

/** {@link identityKey} of a loaded resource: its own key when its type is the shared one. */
export function identityOf(loaded: {
  readonly key: string;
  readonly resource: { readonly metadata: Pointer };
  readonly definition: ResourceDefinition;
}): string {
  const type = storageType(loaded.definition);
  const { metadata } = loaded.resource;
  return type === metadata.type
    ? loaded.key
    : pointerKey({ namespace: metadata.namespace, type, id: metadata.id });
}
