/**
 * The fields of built-in kinds a release really requires. The API server checks a built-in
 * object with its Go validation, never with the OpenAPI it publishes; cosi reads the OpenAPI's
 * `required` as the fields Go requires. Until 1.36 that list was made from the Go struct tags (a
 * field without `omitempty` was "required"), which names fields Go validation never asks for:
 * a StatefulSet's `serviceName` (knative-eventing ships StatefulSets without one), a
 * PriorityClass's `value`, a NetworkPolicy's `podSelector` (absent: every pod). From 1.36 the
 * list is made from the `+required` markers the validation keeps. For an older release, a field
 * stays required only if 1.36 still requires it in the same definition (a definition 1.36 no
 * longer has keeps its list): the check errs towards no false finding.
 */

import { builtinOpenApi } from './builtin-openapi.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';

/** The first release whose OpenAPI `required` lists come from the validation's markers. */
export const FIRST_RELEASE_WITH_MARKED_REQUIRED: KubernetesRelease = '1.36';

let marked: ReadonlyMap<string, ReadonlySet<string>> | undefined;

/**
 * The fields a definition may require, by definition name, for a release older than
 * {@link FIRST_RELEASE_WITH_MARKED_REQUIRED}; empty for that release and later ones, whose own
 * lists are right.
 */
export function requiredFieldsFor(
  release: KubernetesRelease,
): ReadonlyMap<string, ReadonlySet<string>> {
  if (releaseAtLeast(release, FIRST_RELEASE_WITH_MARKED_REQUIRED)) return new Map();
  if (marked === undefined) {
    const lists = new Map<string, ReadonlySet<string>>();
    const { definitions } = builtinOpenApi(FIRST_RELEASE_WITH_MARKED_REQUIRED);
    for (const [name, definition] of Object.entries(definitions)) {
      const required = definition.required;
      lists.set(name, new Set(Array.isArray(required) ? (required as string[]) : []));
    }
    marked = lists;
  }
  return marked;
}
