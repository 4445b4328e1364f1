import type { Pointer } from '../engine/resource/pointer.js';
import type { ApplyResult } from '../engine/state/resource-applier.js';

/**
 * What an apply, edit or destroy of a test project changed, each resource by its pointer
 * (`{ namespace, type, id }`, the type its full name), in the order applied.
 */
export interface AppliedResources {
  /** Manifests that were not in the state and now are. */
  readonly created: readonly Pointer[];
  /** Manifests whose labels, annotations or spec changed. */
  readonly updated: readonly Pointer[];
  /** Manifests removed: torn down now, destroyed once the controllers release them. */
  readonly tornDown: readonly Pointer[];
  /** Manifests applied again as they were. */
  readonly unchanged: readonly Pointer[];
}

/** The pointers of an applier's result, whose keys are manifests' pointer keys. */
export function appliedResources(result: ApplyResult): AppliedResources {
  return {
    created: result.created.map(pointerOfKey),
    updated: result.updated.map(pointerOfKey),
    tornDown: result.tornDown.map(pointerOfKey),
    unchanged: result.unchanged.map(pointerOfKey),
  };
}

/** The pointer a manifest's key (`pointerKey`: namespace, type and id joined by NUL) names. */
function pointerOfKey(key: string): Pointer {
  const [namespace = '', type = '', id = ''] = key.split('\0');
  return { namespace, type, id };
}
