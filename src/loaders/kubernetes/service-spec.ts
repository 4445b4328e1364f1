/**
 * What the API server checks of a Service's type-dependent fields in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateService`), beyond its ports (`service-ports.ts`): an
 * ExternalName Service names its DNS name; a ClusterIP Service has no node ports; only a
 * LoadBalancer has source ranges, each an IP range; a NodePort or LoadBalancer Service is not
 * headless; a ClientIP affinity's timeout is 1 to 86400 seconds; cluster IPs are IP addresses,
 * `clusterIPs` starts with `clusterIP` and holds one per family, of `ipFamilies`' families;
 * external IPs are no loopback, link-local or unspecified ones (`endpoint-ip.ts`); an external
 * traffic policy only on a Service reachable from outside, a health check node port only with
 * `Local` on a LoadBalancer, node ports unique per protocol; `loadBalancerClass` (a qualified
 * name) and `allocateLoadBalancerNodePorts` only on a LoadBalancer; no session affinity config
 * without ClientIP affinity. Each problem
 * at its field, in the API server's words; so are the warnings it gives as it takes a Service
 * (`api-warning`). (Node ports outside the cluster's range are the allocator's, which this
 * cannot know.)
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { apiWarning, type Warn } from './api-warnings.js';
import { endpointIpProblems } from './endpoint-ip.js';
import {
  duplicateValue,
  forbiddenValue,
  invalidStringList,
  invalidValue,
  requiredValue,
} from './go-field-error.js';
import {
  INVALID_IP_MESSAGE,
  isSloppyIpAddress,
  parseSloppyCidr,
  parseSloppyIp,
} from './ip-address.js';
import { STRICT_IP_RELEASE, warnOfCidr, warnOfIp, type Refuse } from './ip-warnings.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import { dns1123SubdomainProblems, qualifiedNameProblems, type Add } from './label-syntax.js';

/** `core.MaxClientIPServiceAffinitySeconds`. */
const MAX_AFFINITY_SECONDS = 86400;

/** The type-dependent problems of a built-in document of `group`/`kind` (a Service's only). */
export function serviceSpecProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
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
  if (type === 'ExternalName') {
    externalNameIpProblems(spec, add);
  } else {
    clusterIpProblems(spec, add);
  }
  externalIpProblems(spec.externalIPs, add);
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
  trafficPolicyProblems(spec, type, add);
  nodePortDuplicates(spec.ports, add);
  loadBalancerFieldProblems(spec, type, add);
  const warn: Warn = (path, message) => problems.push(apiWarning(path, message));
  serviceWarnings(document, type, warn);
  const refuse: Refuse = (path, message) =>
    problems.push({ path: jsonPointer([...path]), part: 'value', keyword: 'ip-address', message });
  if (releaseAtLeast(release, '1.33')) {
    serviceIpWarnings(spec, warn, releaseAtLeast(release, STRICT_IP_RELEASE) ? refuse : undefined);
  }
  return problems;
}

/**
 * `validateServiceExternalTrafficPolicy` (`ExternalPolicyForService`, `NeedsHealthCheck`): an
 * external traffic policy only on a Service reachable from outside (NodePort, LoadBalancer, or
 * any with external IPs), a health check node port only on a LoadBalancer with the `Local`
 * policy (the policy is defaulted to `Cluster`). (The policy and port such a Service needs are
 * defaulted and allocated before validation: their absence is no problem.)
 */
function trafficPolicyProblems(spec: Record<string, unknown>, type: string, add: Add): void {
  const externalIPs = spec.externalIPs;
  const external =
    type === 'NodePort' ||
    type === 'LoadBalancer' ||
    (Array.isArray(externalIPs) && externalIPs.length > 0);
  const policy = spec.externalTrafficPolicy;
  if (!external && typeof policy === 'string' && policy !== '') {
    add(
      ['externalTrafficPolicy'],
      'external-traffic-policy',
      invalidValue(policy, 'may only be set for externally-accessible services'),
    );
  }
  const needsHealthCheck = type === 'LoadBalancer' && policy === 'Local';
  const port = spec.healthCheckNodePort;
  if (!needsHealthCheck && typeof port === 'number' && port !== 0) {
    add(
      ['healthCheckNodePort'],
      'health-check-node-port',
      invalidValue(
        port,
        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ),
    );
  }
}

/** `ValidateService`'s duplicate node ports, by (protocol, node port); the protocol defaults to TCP. */
function nodePortDuplicates(ports: unknown, add: Add): void {
  if (!Array.isArray(ports)) return;
  const seen = new Set<string>();
  ports.forEach((port: unknown, i) => {
    if (!isPlainObject(port) || typeof port.nodePort !== 'number' || port.nodePort === 0) return;
    const protocol =
      typeof port.protocol === 'string' && port.protocol !== '' ? port.protocol : 'TCP';
    const key = `${protocol}/${port.nodePort}`;
    if (seen.has(key)) add(['ports', i, 'nodePort'], 'duplicate', duplicateValue(port.nodePort));
    seen.add(key);
  });
}

/**
 * `ValidateService` and `validateLoadBalancerClassField`: `allocateLoadBalancerNodePorts` and
 * `loadBalancerClass` only on a LoadBalancer, the class a qualified name; no session affinity
 * config when the affinity is `None` (its default).
 */
function loadBalancerFieldProblems(spec: Record<string, unknown>, type: string, add: Add): void {
  const affinity =
    typeof spec.sessionAffinity === 'string' && spec.sessionAffinity !== ''
      ? spec.sessionAffinity
      : 'None';
  if (
    affinity === 'None' &&
    spec.sessionAffinityConfig !== undefined &&
    spec.sessionAffinityConfig !== null
  ) {
    add(
      ['sessionAffinityConfig'],
      'session-affinity',
      forbiddenValue('must not be set when session affinity is None'),
    );
  }
  if (
    type !== 'LoadBalancer' &&
    spec.allocateLoadBalancerNodePorts !== undefined &&
    spec.allocateLoadBalancerNodePorts !== null
  ) {
    add(
      ['allocateLoadBalancerNodePorts'],
      'load-balancer-only',
      forbiddenValue("may only be used when `type` is 'LoadBalancer'"),
    );
  }
  const lbClass = spec.loadBalancerClass;
  if (typeof lbClass !== 'string') return;
  if (type === 'LoadBalancer') {
    for (const message of qualifiedNameProblems(lbClass)) {
      add(['loadBalancerClass'], 'qualified-name', invalidValue(lbClass, message));
    }
  } else {
    add(
      ['loadBalancerClass'],
      'load-balancer-only',
      forbiddenValue("may only be used when `type` is 'LoadBalancer'"),
    );
  }
}

/**
 * The cluster IPs as validation sees them: `clusterIPs`, or `[clusterIP]` when only that is
 * written (the strategy's `normalizeClusterIPs` copies it), each with the field it was written at.
 */
function clusterIps(spec: Record<string, unknown>): { ip: unknown; at: (string | number)[] }[] {
  if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0) {
    return spec.clusterIPs.map((ip: unknown, i) => ({ ip, at: ['clusterIPs', i] }));
  }
  return typeof spec.clusterIP === 'string' && spec.clusterIP !== ''
    ? [{ ip: spec.clusterIP, at: ['clusterIP'] }]
    : [];
}

/** `ValidateServiceClusterIPsRelatedFields`, as it reads a Service being created. */
function clusterIpProblems(spec: Record<string, unknown>, add: Add): void {
  const clusterIP = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
  const written = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]) : [];
  const list = written.filter((ip): ip is string => typeof ip === 'string');
  if (written.length > 0 && list.length === written.length) {
    if (clusterIP === '') {
      add(
        ['clusterIPs'],
        'cluster-ips',
        invalidStringList(list, 'must be empty when `clusterIP` is not specified'),
      );
    } else if (list[0] !== clusterIP) {
      add(
        ['clusterIPs'],
        'cluster-ips',
        invalidStringList(list, 'first value must match `clusterIP`'),
      );
    }
  }
  const families = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as unknown[]) : [];
  families.forEach((family, i) => {
    if (families.indexOf(family) < i) add(['ipFamilies', i], 'duplicate', duplicateValue(family));
  });
  const ips = clusterIps(spec);
  const texts = ips.map(({ ip }) => (typeof ip === 'string' ? ip : ''));
  let invalid = false;
  for (const [i, { ip, at }] of ips.entries()) {
    if (typeof ip !== 'string') continue;
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalid = true;
        add(
          ['clusterIPs'],
          'cluster-ips',
          invalidStringList(texts, "'None' must be the first and only value"),
        );
      }
      continue;
    }
    if (!isSloppyIpAddress(ip)) {
      invalid = true;
      add(at, 'ip', invalidValue(ip, INVALID_IP_MESSAGE));
    }
  }
  if (ips.length > 2) {
    add(['clusterIPs'], 'cluster-ips', invalidStringList(texts, 'may only hold up to 2 values'));
  }
  if (invalid) return;
  const parsed = texts.map((ip) => parseSloppyIp(ip));
  if (parsed.length > 1 && new Set(parsed.map((ip) => ip?.bits)).size !== 2) {
    add(
      ['clusterIPs'],
      'cluster-ips',
      invalidStringList(texts, 'may specify no more than one IP for each IP family'),
    );
  }
  if (texts.length === 1 && texts[0] === 'None') return;
  ips.forEach(({ at }, i) => {
    const family = families[i];
    const bits = parsed[i]?.bits;
    const text = texts[i] as string;
    if (family === 'IPv4' && bits === 128) {
      add(
        at,
        'ip-family',
        invalidValue(text, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``),
      );
    }
    if (family === 'IPv6' && bits !== 128) {
      add(
        at,
        'ip-family',
        invalidValue(text, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``),
      );
    }
  });
}

/** An ExternalName Service has no cluster IPs, IP families or family policy. */
function externalNameIpProblems(spec: Record<string, unknown>, add: Add): void {
  const ips = clusterIps(spec);
  if (ips.length > 0) {
    add(
      ips[0]?.at.length === 1 ? ['clusterIP'] : ['clusterIPs'],
      'forbidden',
      forbiddenValue('may not be set for ExternalName services'),
    );
  }
  if (Array.isArray(spec.ipFamilies) && spec.ipFamilies.length > 0) {
    add(['ipFamilies'], 'forbidden', forbiddenValue('may not be set for ExternalName services'));
  }
  if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
    add(
      ['ipFamilyPolicy'],
      'forbidden',
      forbiddenValue('may not be set for ExternalName services'),
    );
  }
}

/** Each external IP an IP address (`IsValidIP`), and if it is one, no special one (`ValidateEndpointIP`). */
function externalIpProblems(externalIPs: unknown, add: Add): void {
  if (!Array.isArray(externalIPs)) return;
  externalIPs.forEach((ip: unknown, i) => {
    if (typeof ip !== 'string') return;
    const messages = isSloppyIpAddress(ip) ? endpointIpProblems(ip) : [INVALID_IP_MESSAGE];
    for (const message of messages) add(['externalIPs', i], 'ip', invalidValue(ip, message));
  });
}

/**
 * `GetWarningsForService`'s IP addresses and ranges in a form to be refused (`ip-warnings.ts`):
 * the cluster IPs when set (not headless), external IPs, the load balancer IP and source ranges.
 * (Before 1.33 the API server words these warnings otherwise: they are not given.)
 */
function serviceIpWarnings(spec: Record<string, unknown>, warn: Warn, refuse?: Refuse): void {
  if (spec.clusterIP !== 'None') {
    for (const { ip, at } of clusterIps(spec)) warnOfIp(ip, ['spec', ...at], warn, refuse);
  }
  if (Array.isArray(spec.externalIPs)) {
    spec.externalIPs.forEach((ip: unknown, i) =>
      warnOfIp(ip, ['spec', 'externalIPs', i], warn, refuse),
    );
  }
  if (spec.loadBalancerIP !== '') {
    warnOfIp(spec.loadBalancerIP, ['spec', 'loadBalancerIP'], warn, refuse);
  }
  if (Array.isArray(spec.loadBalancerSourceRanges)) {
    spec.loadBalancerSourceRanges.forEach((range: unknown, i) =>
      warnOfCidr(range, ['spec', 'loadBalancerSourceRanges', i], warn, refuse),
    );
  }
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
