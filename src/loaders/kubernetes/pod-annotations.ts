/**
 * What the API server checks of a pod's annotations in Go beyond their syntax
 * (k8s.io/kubernetes `pkg/apis/core/validation` `ValidatePodSpecificAnnotations`), on a Pod's
 * own metadata and on every workload's pod template: a mirror pod annotation only with a
 * `nodeName`; a deletion cost (`controller.kubernetes.io/pod-deletion-cost`) that is a 32-bit
 * integer written plainly; seccomp annotations naming a profile (`runtime/default`,
 * `docker/default`, `unconfined`, `localhost/<relative path>`); AppArmor annotations naming a
 * container of the pod and a profile (`runtime/default`, `unconfined`, `localhost/<name>`).
 * (The alpha tolerations annotation is not checked.) Each problem at its annotation, in the API
 * server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue } from './go-field-error.js';
import { localDescendingPathProblems } from './local-descending-path.js';
import { CONTAINER_LISTS, podMetadataPath, podSpecPath, valueAtPath } from './pod-spec-paths.js';

const MIRROR_POD = 'kubernetes.io/config.mirror';
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** The annotation problems of a built-in document of `group`/`kind` that holds a pod. */
export function podAnnotationProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const specAt = podSpecPath(group, kind);
  if (specAt === undefined) return [];
  const annotationsAt = [...podMetadataPath(specAt), 'annotations'];
  const annotations = valueAtPath(document, annotationsAt);
  if (!isPlainObject(annotations)) return [];
  const spec = valueAtPath(document, specAt);
  const podSpec = isPlainObject(spec) ? spec : {};
  const problems: SchemaProblem[] = [];
  const add = (key: string, value: unknown, message: string): void => {
    problems.push({
      path: jsonPointer([...annotationsAt, key]),
      part: 'value',
      keyword: 'pod-annotation',
      message: invalidValue(value, message),
    });
  };
  const mirror = annotations[MIRROR_POD];
  if (
    typeof mirror === 'string' &&
    (typeof podSpec.nodeName !== 'string' || podSpec.nodeName === '')
  ) {
    add(MIRROR_POD, mirror, 'must set spec.nodeName if mirror pod annotation is set');
  }
  const cost = annotations[DELETION_COST];
  if (typeof cost === 'string' && !isDeletionCost(cost))
    add(DELETION_COST, cost, 'must be a 32bit integer');
  const seccomp = annotations[SECCOMP_POD];
  if (typeof seccomp === 'string') seccompProblems(SECCOMP_POD, seccomp, add);
  for (const [key, value] of Object.entries(annotations)) {
    if (typeof value !== 'string') continue;
    if (key.startsWith(SECCOMP_CONTAINER_PREFIX)) seccompProblems(key, value, add);
  }
  const containers = containerNames(podSpec);
  for (const [key, value] of Object.entries(annotations)) {
    if (typeof value !== 'string' || !key.startsWith(APPARMOR_CONTAINER_PREFIX)) continue;
    const container = key.slice(APPARMOR_CONTAINER_PREFIX.length);
    if (!containers.has(container)) add(key, container, 'container not found');
    if (!isAppArmorProfile(value))
      add(key, value, `invalid AppArmor profile name: ${JSON.stringify(value)}`);
  }
  return problems;
}

/**
 * `GetDeletionCostFromPodAnnotations`: a sign only as `-`, no leading zero (but `0` itself), and
 * `strconv.ParseInt(value, 10, 32)`.
 */
function isDeletionCost(value: string): boolean {
  if (!/^(?:-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return false;
  const number = Number(value);
  return number >= INT32_MIN && number <= INT32_MAX;
}

/** `ValidateSeccompProfile` of an annotation's value. */
function seccompProblems(
  key: string,
  value: string,
  add: (key: string, value: unknown, message: string) => void,
): void {
  if (value === 'runtime/default' || value === 'docker/default' || value === 'unconfined') return;
  if (value.startsWith('localhost/')) {
    const path = value.slice('localhost/'.length);
    localDescendingPathProblems(path, (message) => add(key, path, message));
    return;
  }
  add(key, value, 'must be a valid seccomp profile');
}

/** `ValidateAppArmorProfileFormat`. */
function isAppArmorProfile(value: string): boolean {
  return (
    value === '' ||
    value === 'runtime/default' ||
    value === 'unconfined' ||
    value.startsWith('localhost/')
  );
}

/** The names of a pod spec's containers of every list (`podSpecHasContainer`). */
function containerNames(spec: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) {
      if (isPlainObject(container) && typeof container.name === 'string') names.add(container.name);
    }
  }
  return names;
}
