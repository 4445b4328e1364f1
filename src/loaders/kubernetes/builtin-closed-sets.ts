/**
 * The closed sets of built-in kinds' fields for releases whose OpenAPI has none. Kubernetes
 * publishes the `+enum` types of its API (`restartPolicy`, `protocol`, `imagePullPolicy`,
 * `dnsPolicy`, `Service.spec.type`, ...) as OpenAPI enums from 1.34; before, the same sets were
 * checked by the API server's Go validation, and are absent from the OpenAPI. For an older
 * release, each field keeps the set 1.34 publishes for the same definition and field, where that
 * release has the field: a value the API server refused is refused there too. (A value added to a
 * set after that release is accepted: the check errs towards no false finding.)
 */

import { builtinOpenApi } from './builtin-openapi.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';

/** The first release whose OpenAPI carries the enums. */
export const FIRST_RELEASE_WITH_ENUMS: KubernetesRelease = '1.34';

/** A field's closed set: of its value (`enum`) or of its list's items (`itemsEnum`). */
export interface ClosedSet {
  readonly enum?: readonly unknown[];
  readonly itemsEnum?: readonly unknown[];
}

let published: ReadonlyMap<string, ClosedSet> | undefined;

/**
 * The closed sets to add to a release's definitions, by `definition/field`
 * (`io.k8s.api.core.v1.PodSpec/restartPolicy`); empty from {@link FIRST_RELEASE_WITH_ENUMS} on,
 * whose own OpenAPI has them.
 */
export function closedSetsFor(release: KubernetesRelease): ReadonlyMap<string, ClosedSet> {
  if (releaseAtLeast(release, FIRST_RELEASE_WITH_ENUMS)) {
    return new Map();
  }
  if (published === undefined) {
    const sets = new Map<string, ClosedSet>();
    const { definitions } = builtinOpenApi(FIRST_RELEASE_WITH_ENUMS);
    for (const [name, definition] of Object.entries(definitions)) {
      const properties = definition.properties;
      if (typeof properties !== 'object' || properties === null) continue;
      for (const [field, schema] of Object.entries(properties as Record<string, unknown>)) {
        const property = schema as { enum?: unknown; items?: { enum?: unknown } };
        if (Array.isArray(property.enum)) sets.set(`${name}/${field}`, { enum: property.enum });
        else if (Array.isArray(property.items?.enum)) {
          sets.set(`${name}/${field}`, { itemsEnum: property.items.enum });
        }
      }
    }
    published = sets;
  }
  return published;
}
