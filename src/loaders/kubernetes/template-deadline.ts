/**
 * A pod template's `activeDeadlineSeconds`, which only a Job's pods may have: the API server
 * refuses it in a Deployment's or ReplicaSet's template (`ValidatePodTemplateSpecForReplicaSet`,
 * whose words name a ReplicaSet for both), a StatefulSet's, a DaemonSet's (their specs'
 * validation, k8s.io/kubernetes `pkg/apis/apps/validation`) and a ReplicationController's (core's
 * `ValidatePodTemplateSpecForRC`): `Forbidden: activeDeadlineSeconds in ReplicaSet is not
 * Supported`, at the field.
 */

import { jsonPointer } from '../json-pointer.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue } from './go-field-error.js';
import { valueAtPath } from './pod-spec-paths.js';

/** The word each kind's message names it by. */
const WORKLOADS: Readonly<Record<string, string>> = {
  'apps/Deployment': 'ReplicaSet',
  'apps/ReplicaSet': 'ReplicaSet',
  'apps/StatefulSet': 'StatefulSet',
  'apps/DaemonSet': 'DaemonSet',
  '/ReplicationController': 'ReplicationController',
};
const AT = ['spec', 'template', 'spec', 'activeDeadlineSeconds'];

/** The template deadline problem of a built-in document of `group`/`kind`, if it has one. */
export function templateDeadlineProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const word = WORKLOADS[`${group}/${kind}`];
  if (word === undefined) return [];
  const deadline = valueAtPath(document, AT);
  // Go's nil pointer: absent or null.
  if (deadline === undefined || deadline === null) return [];
  return [
    {
      path: jsonPointer(AT),
      part: 'value',
      keyword: 'forbidden',
      message: forbiddenValue(`activeDeadlineSeconds in ${word} is not Supported`),
    },
  ];
}
