import type { ResourceDefinition } from '../engine/resource/definition.js';
/**
 * The top-level spec fields of a type that controllers write and an apply keeps when its
 * manifest lacks them: a Kubernetes kind's `status` (kept by `kubectl apply`, which removes only
 * what its last apply set; and never touched when the kind has the status subresource).
 */
export function controllerSpecFields(
  definition: ResourceDefinition | undefined,
): readonly string[] {
  return definition?.kubernetes === undefined ? [] : STATUS_FIELD;
}

const STATUS_FIELD: readonly string[] = Object.freeze(['status']);
