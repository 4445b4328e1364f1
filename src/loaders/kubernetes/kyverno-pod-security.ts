/**
 * The Pod Security Standard controls a Kyverno rule's `validate.podSecurity` excludes (and a
 * policy exception's `podSecurity`), as Kyverno checks them when written
 * (`PodSecurityStandard.Validate` and `Rule.ValidatePSaControlNames` of its `api/kyverno/v1`):
 * a container-level control names the images it excludes, a pod-level one none; a
 * `restrictedField` goes with its `values`; at the `baseline` level, no control of `restricted`
 * only is excluded (but `Seccomp` and `Capabilities`, which both levels have).
 */

import { isPlainObject } from '../manifest-document.js';
import { forbiddenValue, invalidValue } from './go-field-error.js';
import type { AddProblem, Path } from './kyverno-match.js';

/** The controls of the `restricted` level (`PSS_restricted_control_names`). */
const RESTRICTED_CONTROLS = new Set([
  'Volume Types',
  'Privilege Escalation',
  'Running as Non-root',
  'Running as Non-root user',
  'Seccomp',
  'Capabilities',
]);
/** Controls of both levels, which a baseline rule may exclude. */
const BOTH_LEVELS = new Set(['Seccomp', 'Capabilities']);
/** Controls checked on the pod (`PSS_pod_level_control`): excluded for no images. */
const POD_LEVEL = new Set(['Host Namespaces', 'HostPath Volumes', 'Sysctls', 'Volume Types']);
/** Controls checked on each container (`PSS_container_level_control`): excluded for images. */
const CONTAINER_LEVEL = new Set([
  'Capabilities',
  'Privileged Containers',
  'Host Ports',
  '/proc Mount Type',
  'Privilege Escalation',
]);

/**
 * Reports the problems of a list of excluded controls; `level` is the rule's (`baseline`,
 * `restricted`), `undefined` for an exception's.
 */
export function podSecurityExcludeProblems(
  excludes: unknown,
  at: Path,
  level: unknown,
  add: AddProblem,
): void {
  if (!Array.isArray(excludes)) return;
  excludes.forEach((exclude: unknown, i) => {
    if (!isPlainObject(exclude)) return;
    const here = [...at, i];
    const control = typeof exclude.controlName === 'string' ? exclude.controlName : '';
    const images = Array.isArray(exclude.images) && exclude.images.length > 0;
    if (CONTAINER_LEVEL.has(control) && !images) {
      add(
        [...here, 'controlName'],
        invalidValue(control, 'exclude.images must be specified for the container level control'),
      );
    } else if (POD_LEVEL.has(control) && images) {
      add(
        [...here, 'controlName'],
        invalidValue(control, 'exclude.images must not be specified for the pod level control'),
      );
    }
    const restricted =
      typeof exclude.restrictedField === 'string' && exclude.restrictedField !== '';
    const values = Array.isArray(exclude.values) && exclude.values.length > 0;
    if (restricted && !values)
      add([...here, 'values'], forbiddenValue('values is required'), 'key');
    if (!restricted && values) {
      add([...here, 'restrictedField'], forbiddenValue('restrictedField is required'), 'key');
    }
    if (level === 'baseline' && RESTRICTED_CONTROLS.has(control) && !BOTH_LEVELS.has(control)) {
      add(
        [...here, 'controlName'],
        invalidValue(
          control,
          'Invalid control name defined at the given level (a control of the restricted level, which a baseline rule does not check)',
        ),
      );
    }
  });
}
