/**
 * A Kyverno `ClusterCleanupPolicy` or `CleanupPolicy`, as Kyverno checks it when it is written
 * (`CleanupPolicySpec.Validate` of its `api/kyverno/v2`), in its words: its name has at most 63
 * characters; its `schedule` is a cron schedule; its context has no `configMap` or
 * `imageRegistry` entries; its match and exclude name no user (it runs with no request) and are
 * checked as a policy's (`kyverno-match.ts`, a `CleanupPolicy` being namespaced); an
 * `exclude.any` filter that is one of `match.any`'s leaves nothing to clean up.
 *
 * Its conditions: `kyverno-variables.ts`.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { cronScheduleError } from './cron-schedule.js';
import { forbiddenValue, invalidValue } from './go-field-error.js';
import { emptySetProblems, matchProblems, type ClusterScope } from './kyverno-match.js';
import { policyNameProblems, specProblems } from './kyverno-policy-spec.js';

/** The problems of a cleanup policy (see above). */
export function cleanupPolicyProblems(
  document: Record<string, unknown>,
  kind: string,
  isClusterScoped: ClusterScope,
): SchemaProblem[] {
  return specProblems(document, (spec, add) => {
    policyNameProblems(document.metadata, add);
    if (Array.isArray(spec.context)) {
      spec.context.forEach((entry: unknown, i) => {
        if (!isPlainObject(entry)) return;
        const refused =
          entry.imageRegistry != null
            ? 'imageRegistry'
            : entry.configMap != null
              ? 'configMap'
              : undefined;
        if (refused === undefined) return;
        add(
          ['spec', 'context', i, refused],
          forbiddenValue(
            `${refused === 'configMap' ? 'ConfigMap' : 'ImageRegistry'} is not allowed in CleanUp Policy (only apiCall, globalReference and variable entries)`,
          ),
          'key',
        );
      });
    }
    if (typeof spec.schedule === 'string') {
      const error = cronScheduleError(spec.schedule);
      if (error !== undefined) {
        add(
          ['spec', 'schedule'],
          invalidValue(
            spec.schedule,
            `schedule spec in the cleanupPolicy is not in proper cron format (${error})`,
          ),
        );
      }
    }
    const rules = {
      namespaced: kind === 'CleanupPolicy',
      isClusterScoped,
      noUserInfo: 'a cleanup policy runs on a schedule, with no request and no user',
    };
    matchProblems(spec.match, ['spec', 'match'], rules, add);
    matchProblems(spec.exclude, ['spec', 'exclude'], rules, add);
    emptySetProblems(spec.match, spec.exclude, ['spec'], 'CleanupPolicy', add);
  });
}
