/**
 * What the API server checks of a pod's topology spread constraints in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateTopologySpreadConstraints`), beyond the OpenAPI's closed
 * sets (`whenUnsatisfiable`, the node policies) and its list keys (no two constraints of one
 * `topologyKey` and `whenUnsatisfiable`): a positive `maxSkew`, a `topologyKey`, a positive
 * `minDomains` only with `DoNotSchedule`, `matchLabelKeys` that are label keys beside a label
 * selector, and the label selector itself. Each problem at its field, in the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { labelNameProblems, labelSelectorProblems } from './label-syntax.js';
import { podSpecOf } from './pod-spec-paths.js';

const NOT_POSITIVE = 'must be greater than zero';

/** An integer the schema's `format` lets through (one that is no int32 is its to report). */
const isInt32 = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 2 ** 31;

/** The topology spread problems of a built-in document of `group`/`kind`. */
export function topologySpreadProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod || !Array.isArray(pod.spec.topologySpreadConstraints)) return [];
  const { problems, add } = pod;
  const constraints = pod.spec.topologySpreadConstraints as unknown[];
  constraints.forEach((constraint: unknown, i) => {
    if (!isPlainObject(constraint)) return;
    const at = (...path: (string | number)[]) => ['topologySpreadConstraints', i, ...path];
    const { maxSkew, topologyKey, whenUnsatisfiable, minDomains } = constraint;

    if (isInt32(maxSkew) && maxSkew <= 0) {
      add(at('maxSkew'), 'topology-spread', invalidValue(maxSkew, NOT_POSITIVE));
    }
    if (topologyKey === '') add(at('topologyKey'), 'required', requiredValue('can not be empty'));
    if (isInt32(minDomains)) {
      if (minDomains <= 0) {
        add(at('minDomains'), 'topology-spread', invalidValue(minDomains, NOT_POSITIVE));
      }
      if (typeof whenUnsatisfiable === 'string' && whenUnsatisfiable !== 'DoNotSchedule') {
        add(
          at('minDomains'),
          'topology-spread',
          invalidValue(
            minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${whenUnsatisfiable}`,
          ),
        );
      }
    }
    const selector = constraint.labelSelector;
    const keys = Array.isArray(constraint.matchLabelKeys) ? constraint.matchLabelKeys : [];
    if (keys.length > 0 && (selector === undefined || selector === null)) {
      add(
        at('matchLabelKeys'),
        'topology-spread',
        forbiddenValue('must not be specified when labelSelector is not set'),
      );
    }
    keys.forEach((key: unknown, j) => {
      if (typeof key === 'string') labelNameProblems(key, at('matchLabelKeys', j), add);
    });
    labelSelectorProblems(selector, (path, keyword, message) =>
      add(at('labelSelector', ...path), keyword, message),
    );
  });
  return problems;
}
