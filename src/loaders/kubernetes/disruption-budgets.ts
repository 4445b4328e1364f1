/**
 * What the API server checks of a PodDisruptionBudget in Go that the OpenAPI does not
 * (k8s.io/kubernetes `pkg/apis/policy/validation` `ValidatePodDisruptionBudgetSpec`): it bounds
 * the disruption by `minAvailable` or by `maxUnavailable`, not by both, each a count not negative
 * or a percentage of at most 100% (`ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`),
 * and selects pods by a well-formed label selector (`ValidateLabelSelector`).
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { invalidStructValue } from './go-field-error.js';
import { labelSelectorProblems } from './label-syntax.js';
import { intOrPercentProblems } from './rollout-bounds.js';

/** The problems of a built-in document of `group`/`kind` (none but for a PodDisruptionBudget). */
export function disruptionBudgetProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'policy' || kind !== 'PodDisruptionBudget') return [];
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable)) {
    problems.push({
      path: '/spec',
      part: 'value',
      keyword: 'one-of',
      message: invalidStructValue(spec, 'minAvailable and maxUnavailable cannot be both set'),
    });
  }
  const add = (path: string[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  intOrPercentProblems(spec.minAvailable, ['spec', 'minAvailable'], add, true);
  intOrPercentProblems(spec.maxUnavailable, ['spec', 'maxUnavailable'], add, true);
  labelSelectorProblems(spec.selector, (path, keyword, message) =>
    add(['spec', 'selector', ...path.map(String)], keyword, message),
  );
  return problems;
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}
