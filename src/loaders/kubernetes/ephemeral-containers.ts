/**
 * What the API server checks of ephemeral containers in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateEphemeralContainers`, `ValidatePodCreate`,
 * `ValidatePodTemplateSpec`): a manifest cannot create them (a Pod gets them only through its
 * `ephemeralContainers` subresource, a pod template never), each one targets a regular or init
 * container of the pod, and sets none of the fields that serve the pod's workload (ports, probes,
 * resources, lifecycle, restart policies, mount sub-paths). Their names, images, environment and
 * security contexts are checked with the pod's other containers. Each problem at its field, in
 * the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, notFoundValue } from './go-field-error.js';
import { podSpecOf } from './pod-spec-paths.js';

const NOT_FOR_EPHEMERAL = 'cannot be set for an Ephemeral Container';

/**
 * The fields of `EphemeralContainerCommon` that `allowedEphemeralContainerFields` does not allow,
 * in the Go struct's order (their JSON names).
 */
const FORBIDDEN_FIELDS = [
  'ports',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'restartPolicyRules',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
];

/** The ephemeral container problems of a built-in document of `group`/`kind`. */
export function ephemeralContainerProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod || !Array.isArray(pod.spec.ephemeralContainers)) return [];
  const { spec, problems, add } = pod;
  const ephemeral = spec.ephemeralContainers as unknown[];
  if (ephemeral.length === 0) return [];
  add(
    ['ephemeralContainers'],
    'ephemeral-container',
    forbiddenValue(
      group === '' && kind === 'Pod'
        ? 'cannot be set on create'
        : 'ephemeral containers not allowed in pod template',
    ),
  );
  const targets = new Set<unknown>();
  for (const list of ['containers', 'initContainers']) {
    const containers = spec[list];
    for (const container of Array.isArray(containers) ? containers : []) {
      if (isPlainObject(container)) targets.add(container.name);
    }
  }
  ephemeral.forEach((container: unknown, i) => {
    if (!isPlainObject(container)) return;
    const at = (...path: (string | number)[]) => ['ephemeralContainers', i, ...path];
    const target = container.targetContainerName;
    if (typeof target === 'string' && target !== '' && !targets.has(target)) {
      add(at('targetContainerName'), 'ephemeral-container', notFoundValue(target));
    }
    for (const field of FORBIDDEN_FIELDS) {
      if (isGoZero(container[field], field === 'resources')) continue;
      add(at(field), 'ephemeral-container', forbiddenValue(NOT_FOR_EPHEMERAL));
    }
    const mounts = container.volumeMounts;
    if (!Array.isArray(mounts)) return;
    mounts.forEach((mount: unknown, j) => {
      if (!isPlainObject(mount)) return;
      for (const field of ['subPath', 'subPathExpr']) {
        const path = mount[field];
        if (typeof path === 'string' && path !== '') {
          add(
            at('volumeMounts', j, field),
            'ephemeral-container',
            forbiddenValue(NOT_FOR_EPHEMERAL),
          );
        }
      }
    });
  });
  return problems;
}

/**
 * Whether a decoded field is Go's zero value, which `validateFieldAllowList` lets pass: absent or
 * null, or a struct held by value (`resources`) whose fields are all absent. A pointer to an empty
 * struct (`livenessProbe: {}`), a list or a map, even empty, is set.
 */
function isGoZero(value: unknown, byValue: boolean): boolean {
  if (value === undefined || value === null) return true;
  return (
    byValue &&
    isPlainObject(value) &&
    Object.values(value).every((v) => v === undefined || v === null)
  );
}
