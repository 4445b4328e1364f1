/**
 * What the API server checks of a Lease's spec in Go (k8s.io/kubernetes
 * `pkg/apis/coordination/validation` `ValidateLeaseSpec`): a lease lasts more than zero seconds
 * and has not changed hands a negative number of times. Each problem at its field, in the API
 * server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue } from './go-field-error.js';

/** The problems of a built-in document of `group`/`kind` (a Lease's only). */
export function leaseProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'coordination.k8s.io' || kind !== 'Lease' || !isPlainObject(document.spec)) {
    return [];
  }
  const { leaseDurationSeconds, leaseTransitions } = document.spec;
  const problems: SchemaProblem[] = [];
  const add = (field: string, message: string): void => {
    problems.push({ path: jsonPointer(['spec', field]), part: 'value', keyword: 'lease', message });
  };
  if (typeof leaseDurationSeconds === 'number' && leaseDurationSeconds <= 0) {
    add('leaseDurationSeconds', invalidValue(leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof leaseTransitions === 'number' && leaseTransitions < 0) {
    add('leaseTransitions', invalidValue(leaseTransitions, 'must be greater than or equal to 0'));
  }
  return problems;
}
