/**
 * A webhook's or an admission policy's `matchConditions`, as the API server checks them in Go
 * (k8s.io/kubernetes `pkg/apis/admissionregistration/validation` `validateMatchCondition`): each
 * has a name that is a qualified name (`exclude-leases`, `example.com/not-kube-system`) and an
 * expression that is not blank. Whether the expression compiles is `admission-expressions.ts`'s;
 * a condition whose name or expression is left out is the schema's (both are `required`). A name
 * written twice is `Duplicate value`, at the second.
 */

import { isPlainObject } from '../manifest-document.js';
import { duplicateValue, invalidValue, requiredValue } from './go-field-error.js';
import { qualifiedNameProblems, type Add } from './label-syntax.js';

/** The problems of the `matchConditions` list `conditions`, each added at its path below it. */
export function matchConditionProblems(conditions: unknown, add: Add): void {
  if (!Array.isArray(conditions)) return;
  const names = new Set<string>();
  conditions.forEach((condition: unknown, i) => {
    if (!isPlainObject(condition)) return;
    const { name, expression } = condition;
    if (typeof expression === 'string' && expression.trim() === '') {
      add([i, 'expression'], 'required', requiredValue());
    }
    if (name === '') add([i, 'name'], 'required', requiredValue());
    else if (typeof name === 'string') {
      for (const message of qualifiedNameProblems(name)) {
        add([i, 'name'], 'match-condition-name', invalidValue(name, message));
      }
      if (names.has(name)) add([i, 'name'], 'duplicate', duplicateValue(name));
      names.add(name);
    }
  });
}
