/**
 * What the API server checks of a PodDisruptionBudget in Go that the OpenAPI does not
 * (k8s.io/kubernetes `pkg/apis/policy/validation` `ValidatePodDisruptionBudgetSpec`): it bounds
 * the disruption by `minAvailable` or by `maxUnavailable`, not by both.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidStructValue } from './go-field-error.js';

/** The problems of a built-in document of `group`/`kind` (none but for a PodDisruptionBudget). */
export function disruptionBudgetProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'policy' || kind !== 'PodDisruptionBudget') return [];
  const spec = document.spec;
  if (!isPlainObject(spec) || !isSet(spec.minAvailable) || !isSet(spec.maxUnavailable)) return [];
  return [
    {
      path: '/spec',
      part: 'value',
      keyword: 'one-of',
      message: invalidStructValue(spec, 'minAvailable and maxUnavailable cannot be both set'),
    },
  ];
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}
