/**
 * What the API server checks of a Windows pod's `hostProcess` containers in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateWindowsHostProcessPod`): a container's
 * `windowsOptions.hostProcess` agrees with the pod's where both are set; if any container
 * (init, regular or ephemeral) is a host process, set or inherited from the pod, all are, and
 * the pod has `hostNetwork: true`. Each problem at its field, in the API server's words. Left to
 * the cluster: `hostProcess containers are disallowed by cluster policy`, which only an API
 * server started without `--allow-privileged` says.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue } from './go-field-error.js';
import { CONTAINER_LISTS, podSpecOf } from './pod-spec-paths.js';

/** `securityContext.windowsOptions.hostProcess` of a pod spec or a container, if a boolean. */
function hostProcessOf(holder: Record<string, unknown>): boolean | undefined {
  const context = holder.securityContext;
  if (!isPlainObject(context) || !isPlainObject(context.windowsOptions)) return undefined;
  const hostProcess = context.windowsOptions.hostProcess;
  return typeof hostProcess === 'boolean' ? hostProcess : undefined;
}

/** The `hostProcess` problems of a built-in document of `group`/`kind`. */
export function windowsHostProcessProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  const podHostProcess = hostProcessOf(spec);
  let containers = 0;
  let hostProcessContainers = 0;
  for (const list of CONTAINER_LISTS) {
    const entries = spec[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((container: unknown, i) => {
      containers++;
      const own = isPlainObject(container) ? hostProcessOf(container) : undefined;
      if (podHostProcess !== undefined && own !== undefined && own !== podHostProcess) {
        add(
          [list, i, 'securityContext', 'windowsOptions', 'hostProcess'],
          'host-process',
          invalidValue(
            own,
            `pod hostProcess value must be identical if both are specified, was ${String(podHostProcess)}`,
          ),
        );
      }
      if (own ?? podHostProcess) hostProcessContainers++;
    });
  }
  if (hostProcessContainers === 0) return problems;
  if (hostProcessContainers !== containers) {
    add(
      [],
      'host-process',
      invalidValue(
        '',
        'If pod contains any hostProcess containers then all containers must be HostProcess containers',
      ),
    );
  }
  if (spec.hostNetwork !== true) {
    add(
      ['hostNetwork'],
      'host-process',
      invalidValue(false, 'hostNetwork must be true if pod contains any hostProcess containers'),
    );
  }
  return problems;
}
