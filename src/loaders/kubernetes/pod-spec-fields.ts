/**
 * What the API server checks of a pod spec's own names and scalars in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidatePodSpec`): `serviceAccountName`, `nodeName` and
 * `priorityClassName` are DNS-1123 subdomains when written (`ValidateServiceAccountName`,
 * `ValidateNodeName`, `ValidatePriorityClassName`), `runtimeClassName` is one whenever it is
 * set, even to `""` (`ValidateRuntimeClassName`), `hostname` and `subdomain` are DNS-1123 labels,
 * and `activeDeadlineSeconds` is between 1 and 2147483647. Each problem at its field, in the API
 * server's words.
 */

import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue } from './go-field-error.js';
import { dns1123LabelProblems, dns1123SubdomainProblems } from './label-syntax.js';
import { podSpecOf } from './pod-spec-paths.js';

/** The fields checked as DNS-1123 subdomains when not empty. */
const SUBDOMAIN_FIELDS = ['serviceAccountName', 'nodeName', 'priorityClassName'] as const;
/** The fields checked as DNS-1123 labels when not empty. */
const LABEL_FIELDS = ['hostname', 'subdomain'] as const;
const MAX_INT32 = 2147483647;

/** The name and scalar problems of the pod spec of a built-in document of `group`/`kind`. */
export function podSpecFieldProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  const check = (field: string, label: boolean, always = false): void => {
    const value = spec[field];
    if (typeof value !== 'string' || (value === '' && !always)) return;
    const messages = label ? dns1123LabelProblems(value) : dns1123SubdomainProblems(value);
    const keyword = label ? 'dns-1123-label' : 'dns-1123-subdomain';
    for (const message of messages) add([field], keyword, invalidValue(value, message));
  };
  for (const field of SUBDOMAIN_FIELDS) check(field, false);
  // `ValidateRuntimeClassName` runs for any value written: the field is a pointer in Go.
  check('runtimeClassName', false, true);
  for (const field of LABEL_FIELDS) check(field, true);
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === 'number' && (deadline < 1 || deadline > MAX_INT32)) {
    add(
      ['activeDeadlineSeconds'],
      'minimum',
      invalidValue(deadline, `must be between 1 and ${MAX_INT32}, inclusive`),
    );
  }
  return problems;
}
