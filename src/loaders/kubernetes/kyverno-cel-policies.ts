/**
 * Kyverno's CEL policies (`policies.kyverno.io`: `ValidatingPolicy`, `ImageValidatingPolicy`,
 * `MutatingPolicy`, `GeneratingPolicy`, `DeletingPolicy` and their namespaced kinds), checked as
 * Kyverno checks them when they are written (the `Validate` of its `pkg/cel/policies/vpol`,
 * `mpol`, `gpol`, `dpol` and `pkg/image/verification/evaluator`),
 * beyond their CRDs and their expressions' syntax (`admission-expressions.ts`): each matches at
 * least one resource rule, and a mutating policy is evaluated on admission or on existing
 * resources.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, requiredValue } from './go-field-error.js';
import { specProblems } from './kyverno-policy-spec.js';

const GROUP = 'policies.kyverno.io';
/** The kinds whose `matchConstraints` need a resource rule. */
const MATCHING = new Set(
  [
    'ValidatingPolicy',
    'ImageValidatingPolicy',
    'MutatingPolicy',
    'GeneratingPolicy',
    'DeletingPolicy',
  ].flatMap((kind) => [kind, `Namespaced${kind}`]),
);

/** Whether a document of `group`/`kind` is one of Kyverno's CEL policies checked here. */
export function isKyvernoCelPolicy(group: string, kind: string): boolean {
  return group === GROUP && MATCHING.has(kind);
}

/** The problems of one of Kyverno's CEL policies (see above). */
export function kyvernoCelPolicyProblems(
  document: Record<string, unknown>,
  kind: string,
): SchemaProblem[] {
  return specProblems(document, (spec, add) => {
    const match = spec.matchConstraints;
    const rules = isPlainObject(match) ? match.resourceRules : undefined;
    if (!Array.isArray(rules) || rules.length === 0) {
      add(
        ['spec', 'matchConstraints'],
        `${requiredValue('a matchConstraints with at least one resource rule is required')} (Kyverno's admission webhook refuses a policy that would see no request; \`kyverno apply\` evaluates one anyway, on the payloads given it)`,
        'key',
      );
    }
    if (kind.endsWith('MutatingPolicy')) {
      const evaluation = isPlainObject(spec.evaluation) ? spec.evaluation : {};
      const enabled = (mode: unknown): unknown => (isPlainObject(mode) ? mode.enabled : undefined);
      if (enabled(evaluation.admission) === false && enabled(evaluation.mutateExisting) !== true) {
        add(
          ['spec', 'evaluation'],
          forbiddenValue(
            'disabling both admission and mutateExisting evaluation modes is not allowed',
          ),
          'key',
        );
      }
    }
  });
}
