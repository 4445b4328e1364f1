/**
 * What the API server checks of a pod's tolerations in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateTolerations`), beyond the OpenAPI's closed sets of
 * `operator` and `effect`: a key is a label key, an empty key needs `operator: Exists` (it
 * matches every taint), `tolerationSeconds` goes only with the `NoExecute` effect, an `Equal`
 * toleration's value is a label value and an `Exists` one has none. Each problem at its field, in
 * the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue } from './go-field-error.js';
import { labelNameProblems, labelValueProblems } from './label-syntax.js';
import { podSpecOf } from './pod-spec-paths.js';

/** The toleration problems of a built-in document of `group`/`kind` (none without a pod spec). */
export function tolerationProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod || !Array.isArray(pod.spec.tolerations)) return [];
  const { problems, add } = pod;
  tolerationListProblems(pod.spec.tolerations, (path, keyword, message) =>
    add(['tolerations', ...path], keyword, message),
  );
  return problems;
}

type Add = (path: (string | number)[], keyword: string, message: string) => void;

/** `ValidateTolerations` of a list, each problem added at its path below the list. */
export function tolerationListProblems(tolerations: readonly unknown[], add: Add): void {
  tolerations.forEach((toleration: unknown, i) => {
    if (!isPlainObject(toleration)) return;
    const at = (field: string): (string | number)[] => [i, field];
    const key = typeof toleration.key === 'string' ? toleration.key : '';
    // An absent operator is Go's empty string, which means `Equal`.
    const operator = typeof toleration.operator === 'string' ? toleration.operator : '';
    const effect = typeof toleration.effect === 'string' ? toleration.effect : '';
    const value = typeof toleration.value === 'string' ? toleration.value : '';
    if (key !== '') labelNameProblems(key, at('key'), add);
    if (key === '' && operator !== 'Exists') {
      add(
        at('operator'),
        'toleration',
        invalidValue(
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    const seconds = toleration.tolerationSeconds;
    if (seconds !== undefined && seconds !== null && effect !== 'NoExecute') {
      add(
        at('effect'),
        'toleration',
        invalidValue(effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"),
      );
    }
    if (operator === 'Equal' || operator === '') {
      const why = labelValueProblems(value);
      // Go joins this value's messages with ";" and reports them at `operator`.
      if (why.length > 0) add(at('operator'), 'toleration', invalidValue(value, why.join(';')));
    } else if (operator === 'Exists' && value !== '') {
      add(
        at('operator'),
        'toleration',
        invalidValue(value, "value must be empty when `operator` is 'Exists'"),
      );
    }
    // Another operator is the OpenAPI's closed set's to report (`Gt` and `Lt` from 1.35 on).
  });
}
