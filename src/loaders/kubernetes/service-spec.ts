/**
 * What the API server checks of a Service's type-dependent fields in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateService`), beyond its ports (`service-ports.ts`): an
 * ExternalName Service names its DNS name; a ClusterIP Service has no node ports; only a
 * LoadBalancer has source ranges, each an IP range; a NodePort or LoadBalancer Service is not
 * headless; a ClientIP affinity's timeout is 1 to 86400 seconds. Each problem at its field, in
 * the API server's words; so are the warnings it gives as it takes a Service (`api-warning`). (Node ports outside the cluster's range are the allocator's, which
 * this cannot know.)
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { apiWarning } from './api-warnings.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { parseSloppyCidr } from './ip-address.js';
import { dns1123SubdomainProblems } from './label-syntax.js';

/** `core.MaxClientIPServiceAffinitySeconds`. */
const MAX_AFFINITY_SECONDS = 86400;

/** The type-dependent problems of a built-in document of `group`/`kind` (a Service's only). */
export function serviceSpecProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || kind !== 'Service' || !isPlainObject(document.spec)) return [];
  const spec = document.spec;
  // Defaulted: a Service without a type is a ClusterIP one.
  const type = typeof spec.type === 'string' && spec.type !== '' ? spec.type : 'ClusterIP';
  const problems: SchemaProblem[] = [];
  const add = (path: (string | number)[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer(['spec', ...path]), part: 'value', keyword, message });
  };
  if (type === 'ExternalName') {
    const name = spec.externalName;
    if (typeof name !== 'string' || name === '') {
      add(['externalName'], 'required', requiredValue());
    } else {
      // A fully qualified name's trailing dot is allowed.
      const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
      for (const message of dns1123SubdomainProblems(trimmed)) {
        add(['externalName'], 'dns-1123-subdomain', invalidValue(name, message));
      }
    }
  }
  if (type === 'ClusterIP' && Array.isArray(spec.ports)) {
    spec.ports.forEach((port: unknown, i) => {
      if (isPlainObject(port) && typeof port.nodePort === 'number' && port.nodePort !== 0) {
        add(
          ['ports', i, 'nodePort'],
          'node-port',
          forbiddenValue("may not be used when `type` is 'ClusterIP'"),
        );
      }
    });
  }
  if ((type === 'NodePort' || type === 'LoadBalancer') && spec.clusterIP === 'None') {
    add(
      ['clusterIP'],
      'headless',
      invalidValue('None', `may not be set to 'None' for ${type} services`),
    );
  }
  const ranges = spec.loadBalancerSourceRanges;
  if (Array.isArray(ranges) && ranges.length > 0) {
    if (type !== 'LoadBalancer') {
      add(
        ['loadBalancerSourceRanges'],
        'load-balancer-only',
        forbiddenValue("may only be used when `type` is 'LoadBalancer'"),
      );
    }
    // Checked whatever the type; Go reports the whole list, here each range that is not one.
    ranges.forEach((range: unknown, i) => {
      if (typeof range === 'string' && parseSloppyCidr(range.trim()) === undefined) {
        add(
          ['loadBalancerSourceRanges', i],
          'cidr',
          invalidValue(
            range,
            'must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 ',
          ),
        );
      }
    });
  }
  const affinity = spec.sessionAffinityConfig;
  const timeout =
    isPlainObject(affinity) && isPlainObject(affinity.clientIP)
      ? affinity.clientIP.timeoutSeconds
      : undefined;
  if (
    spec.sessionAffinity === 'ClientIP' &&
    typeof timeout === 'number' &&
    (timeout <= 0 || timeout > MAX_AFFINITY_SECONDS)
  ) {
    add(
      ['sessionAffinityConfig', 'clientIP', 'timeoutSeconds'],
      'affinity-timeout',
      invalidValue(timeout, `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`),
    );
  }
  serviceWarnings(document, type, (path, message) => problems.push(apiWarning(path, message)));
  return problems;
}

/** The annotation `service.kubernetes.io/topology-mode` replaced. */
const TOPOLOGY_AWARE_HINTS = 'service.kubernetes.io/topology-aware-hints';

/**
 * What the API server warns of as it takes a Service (`GetWarningsForService`): the deprecated
 * topology hints annotation, external IPs an ExternalName Service ignores, and an external name
 * any other type ignores.
 */
function serviceWarnings(
  document: Record<string, unknown>,
  type: string,
  warn: (path: (string | number)[], message: string) => void,
): void {
  const metadata = document.metadata;
  const annotations = isPlainObject(metadata) ? metadata.annotations : undefined;
  if (isPlainObject(annotations) && Object.hasOwn(annotations, TOPOLOGY_AWARE_HINTS)) {
    warn(
      ['metadata', 'annotations', TOPOLOGY_AWARE_HINTS],
      `annotation ${TOPOLOGY_AWARE_HINTS} is deprecated, please use service.kubernetes.io/topology-mode instead`,
    );
  }
  const spec = document.spec as Record<string, unknown>;
  const externalIPs = spec.externalIPs;
  if (type === 'ExternalName' && Array.isArray(externalIPs) && externalIPs.length > 0) {
    warn(['spec', 'externalIPs'], 'spec.externalIPs is ignored when spec.type is "ExternalName"');
  }
  if (
    type !== 'ExternalName' &&
    typeof spec.externalName === 'string' &&
    spec.externalName !== ''
  ) {
    warn(
      ['spec', 'externalName'],
      'spec.externalName is ignored when spec.type is not "ExternalName"',
    );
  }
}
