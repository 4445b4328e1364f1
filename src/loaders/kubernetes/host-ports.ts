/**
 * What the API server checks of a pod's host ports in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `checkHostPortConflicts`, `AccumulateUniqueHostPorts`): no two
 * ports of the containers take the same protocol, host IP and host port (`Duplicate value:
 * "TCP//8080"`); an init container runs alone, so only its own ports are compared. The protocol
 * is defaulted to TCP first, as the API server defaults it. With `hostNetwork: true` a
 * container's host port is its container port (`validatePodSpecNetworkDeps`): one written that
 * differs is `must match \`containerPort\` when \`hostNetwork\` is true` (a Pod's host port of
 * 0 is defaulted to the container port first, a template's is left to the Pods). Each problem at
 * the port's `hostPort` (a duplicate at the later one), in the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { duplicateValue, invalidValue } from './go-field-error.js';
import { podSpecOf } from './pod-spec-paths.js';

const HOST_NETWORK_PORT = 'must match `containerPort` when `hostNetwork` is true';

/** The host port problems of the pod spec of a built-in document of `group`/`kind`. */
export function hostPortProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  if (spec.hostNetwork === true && Array.isArray(spec.containers)) {
    spec.containers.forEach((container: unknown, i) => {
      if (!isPlainObject(container) || !Array.isArray(container.ports)) return;
      container.ports.forEach((port: unknown, j) => {
        if (!isPlainObject(port)) return;
        const { hostPort, containerPort } = port;
        if (typeof hostPort !== 'number' || hostPort === 0 || hostPort === containerPort) return;
        add(
          ['containers', i, 'ports', j, 'hostPort'],
          'host-network',
          invalidValue(hostPort, HOST_NETWORK_PORT),
        );
      });
    });
  }
  if (Array.isArray(spec.containers)) {
    const taken = new Set<string>();
    spec.containers.forEach((container: unknown, i) => {
      uniqueHostPorts(container, taken, (j, key) =>
        add(['containers', i, 'ports', j, 'hostPort'], 'duplicate', duplicateValue(key)),
      );
    });
  }
  if (Array.isArray(spec.initContainers)) {
    spec.initContainers.forEach((container: unknown, i) => {
      uniqueHostPorts(container, new Set(), (j, key) =>
        add(['initContainers', i, 'ports', j, 'hostPort'], 'duplicate', duplicateValue(key)),
      );
    });
  }
  return problems;
}

/** Adds each host port of `container` to `taken`, calling `duplicate` for one already there. */
function uniqueHostPorts(
  container: unknown,
  taken: Set<string>,
  duplicate: (port: number, key: string) => void,
): void {
  if (!isPlainObject(container) || !Array.isArray(container.ports)) return;
  container.ports.forEach((port: unknown, j) => {
    if (!isPlainObject(port) || typeof port.hostPort !== 'number' || port.hostPort === 0) return;
    const protocol =
      typeof port.protocol === 'string' && port.protocol !== '' ? port.protocol : 'TCP';
    const hostIP = typeof port.hostIP === 'string' ? port.hostIP : '';
    const key = `${protocol}/${hostIP}/${port.hostPort}`;
    if (taken.has(key)) duplicate(j, key);
    else taken.add(key);
  });
}
