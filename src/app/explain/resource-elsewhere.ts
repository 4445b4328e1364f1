import { didYouMean } from '../../engine/did-you-mean.js';
import type { Pointer } from '../../engine/resource/pointer.js';
import type { Resource } from '../../engine/resource/resource.js';

/** Where a resource that is not at its pointer may be: the same id elsewhere, or a near id. */
export interface ResourceElsewhere {
  /** The namespaces that hold a resource of its type with its id, sorted. */
  readonly namespaces: readonly string[];
  /** The id of its type and namespace closest to its id, when one is close (a typo). */
  readonly nearest?: string;
}

/**
 * For a resource that is not there: the namespaces where its type has one with its id (a
 * namespace left out of the command), and otherwise the closest id in its namespace (a typo).
 */
export function resourceElsewhere(
  resources: readonly Resource[],
  pointer: Pointer,
): ResourceElsewhere {
  const namespaces = new Set<string>();
  const ids: string[] = [];
  for (const { metadata } of resources) {
    if (metadata.type !== pointer.type) continue;
    if (metadata.id === pointer.id) namespaces.add(metadata.namespace);
    else if (metadata.namespace === pointer.namespace) ids.push(metadata.id);
  }
  namespaces.delete(pointer.namespace);
  const nearest = namespaces.size === 0 ? didYouMean(pointer.id, ids) : undefined;
  return {
    namespaces: [...namespaces].sort(),
    ...(nearest === undefined ? {} : { nearest }),
  };
}

/** `resourceElsewhere` as a clause of a "does not exist" message: ` (… -n tenant001)`, or ''. */
export function elsewhereText(elsewhere: ResourceElsewhere): string {
  const [only] = elsewhere.namespaces;
  if (elsewhere.namespaces.length === 1 && only !== undefined) {
    return ` (there is one in namespace ${only}: -n ${only})`;
  }
  if (elsewhere.namespaces.length > 1) {
    return ` (there is one in namespaces ${elsewhere.namespaces.join(', ')}: give -n)`;
  }
  return elsewhere.nearest === undefined
    ? ''
    : ` (did you mean ${JSON.stringify(elsewhere.nearest)}?)`;
}
