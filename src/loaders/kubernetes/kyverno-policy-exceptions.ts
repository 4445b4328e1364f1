/**
 * A Kyverno `PolicyException`, as Kyverno checks it when it is written
 * (`PolicyExceptionSpec.Validate` of its `api/kyverno/v2`), in its words: it names each policy
 * it excepts; one applied in the background (the default) names no user in its match, which is
 * checked as a policy's (`kyverno-match.ts`); the Pod Security controls it excepts are as a
 * rule's (`kyverno-pod-security.ts`).
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { requiredValue } from './go-field-error.js';
import { matchProblems, type ClusterScope } from './kyverno-match.js';
import { specProblems } from './kyverno-policy-spec.js';
import { podSecurityExcludeProblems } from './kyverno-pod-security.js';

/** The problems of a policy exception (see above). */
export function policyExceptionProblems(
  document: Record<string, unknown>,
  isClusterScoped: ClusterScope,
): SchemaProblem[] {
  return specProblems(document, (spec, add) => {
    matchProblems(
      spec.match,
      ['spec', 'match'],
      {
        namespaced: false,
        isClusterScoped,
        ...(spec.background !== false && {
          noUserInfo:
            'an exception applied in the background (spec.background, true unless false) sees existing resources with no user; set spec.background: false',
        }),
      },
      add,
    );
    podSecurityExcludeProblems(spec.podSecurity, ['spec', 'podSecurity'], undefined, add);
    if (Array.isArray(spec.exceptions)) {
      spec.exceptions.forEach((exception: unknown, i) => {
        if (isPlainObject(exception) && exception.policyName === '') {
          add(
            ['spec', 'exceptions', i, 'policyName'],
            requiredValue('An exception requires a policy name'),
          );
        }
      });
    }
  });
}
