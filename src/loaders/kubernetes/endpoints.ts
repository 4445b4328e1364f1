/**
 * What the API server checks of Endpoints and EndpointSlices in Go, beyond their OpenAPI schema
 * (k8s.io/kubernetes `pkg/apis/core/validation` `validateEndpointSubsets` and
 * `pkg/apis/discovery/validation` `ValidateEndpointSlice`): the manual endpoints of a Service
 * without a selector, pointing at a database outside the cluster, are written by hand.
 *
 * - Endpoints: a subset has addresses (ready or not); each an IP address that is no loopback,
 *   link-local or unspecified one (`endpoint-ip.ts`), a DNS label for a hostname, a DNS subdomain
 *   for a node name; ports named when there are several, each name a DNS label, each number 1 to
 *   65535, an `appProtocol` a qualified name.
 * - EndpointSlices: each endpoint has 1 to 100 addresses of the slice's `addressType` (an IPv4 or
 *   IPv6 address as above, or a fully qualified domain name), a DNS label for a hostname, a DNS
 *   subdomain for a node name, zone hints that are label values, none twice; ports with names
 *   that are DNS labels, none twice (an unnamed port is named `""`), an `appProtocol` a
 *   qualified name.
 *
 * Protocols are defaulted (`TCP`) before validation, and their closed set is the schema's.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { apiWarning, type Warn } from './api-warnings.js';
import { endpointIpProblems } from './endpoint-ip.js';
import { STRICT_IP_RELEASE, warnOfIp, type Refuse } from './ip-warnings.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import { duplicateValue, invalidValue, requiredValue, tooManyValue } from './go-field-error.js';
import { INVALID_IP_MESSAGE, isSloppyIpAddress, parseSloppyIp } from './ip-address.js';
import {
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  labelValueProblems,
  qualifiedNameProblems,
  type Add,
} from './label-syntax.js';

/** `maxAddresses`: an EndpointSlice endpoint's. */
const MAX_ADDRESSES = 100;
/** `maxZoneHints`. */
const MAX_ZONE_HINTS = 8;

/** The problems of a built-in document of `group`/`kind` (Endpoints' and EndpointSlices'). */
export function endpointsProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  if (group === '' && kind === 'Endpoints') {
    endpointSubsetProblems(document.subsets, add);
    if (releaseAtLeast(release, '1.33') && !managedByController(document)) {
      const refuse: Refuse = (path, message) => add([...path], 'ip-address', message);
      endpointIpWarnings(
        document.subsets,
        (path, message) => problems.push(apiWarning(path, message)),
        releaseAtLeast(release, STRICT_IP_RELEASE) ? refuse : undefined,
      );
    }
  }
  if (group === 'discovery.k8s.io' && kind === 'EndpointSlice')
    endpointSliceProblems(document, add);
  return problems;
}

/**
 * `endpointsWarnings`: each address's IP in a form to be refused (`ip-warnings.ts`), from 1.33;
 * not for Endpoints the endpoints controller wrote (its label says so), which it writes clean.
 */
function endpointIpWarnings(subsets: unknown, warn: Warn, refuse?: Refuse): void {
  if (!Array.isArray(subsets)) return;
  subsets.forEach((subset: unknown, i) => {
    if (!isPlainObject(subset)) return;
    for (const field of ['addresses', 'notReadyAddresses']) {
      const addresses = subset[field];
      if (!Array.isArray(addresses)) continue;
      addresses.forEach((address: unknown, j) => {
        const ip = isPlainObject(address) ? address.ip : undefined;
        warnOfIp(ip, ['subsets', i, field, j, 'ip'], warn, refuse);
      });
    }
  });
}

/** Whether the Endpoints are labeled as the endpoints controller's. */
function managedByController(document: Record<string, unknown>): boolean {
  const labels = isPlainObject(document.metadata) ? document.metadata.labels : undefined;
  return (
    isPlainObject(labels) && labels['endpoints.kubernetes.io/managed-by'] === 'endpoint-controller'
  );
}

/** `validateEndpointSubsets`. */
function endpointSubsetProblems(subsets: unknown, add: Add): void {
  if (!Array.isArray(subsets)) return;
  subsets.forEach((subset: unknown, i) => {
    if (!isPlainObject(subset)) return;
    const at = ['subsets', i];
    const listed = (list: unknown): list is unknown[] => Array.isArray(list) && list.length > 0;
    if (!listed(subset.addresses) && !listed(subset.notReadyAddresses)) {
      add(at, 'required', requiredValue('must specify `addresses` or `notReadyAddresses`'));
    }
    for (const field of ['addresses', 'notReadyAddresses']) {
      const addresses = subset[field];
      if (!Array.isArray(addresses)) continue;
      addresses.forEach((address: unknown, j) => {
        if (isPlainObject(address)) endpointAddressProblems(address, [...at, field, j], add);
      });
    }
    if (Array.isArray(subset.ports)) {
      const named = subset.ports.length > 1;
      subset.ports.forEach((port: unknown, j) => {
        if (isPlainObject(port)) endpointPortProblems(port, named, [...at, 'ports', j], add);
      });
    }
  });
}

/** `validateEndpointAddress`: Go gives both IP messages for an address that does not parse. */
function endpointAddressProblems(
  address: Record<string, unknown>,
  at: (string | number)[],
  add: Add,
): void {
  const { ip, hostname, nodeName } = address;
  if (typeof ip === 'string') {
    if (!isSloppyIpAddress(ip)) add([...at, 'ip'], 'ip', invalidValue(ip, INVALID_IP_MESSAGE));
    for (const message of endpointIpProblems(ip)) {
      add([...at, 'ip'], 'endpoint-ip', invalidValue(ip, message));
    }
  }
  if (typeof hostname === 'string' && hostname !== '') {
    for (const message of dns1123LabelProblems(hostname)) {
      add([...at, 'hostname'], 'dns-1123-label', invalidValue(hostname, message));
    }
  }
  nodeNameProblems(nodeName, [...at, 'nodeName'], add);
}

/** `validateEndpointPort`. */
function endpointPortProblems(
  port: Record<string, unknown>,
  named: boolean,
  at: (string | number)[],
  add: Add,
): void {
  const name = typeof port.name === 'string' ? port.name : '';
  if (named && name === '') {
    add([...at, 'name'], 'required', requiredValue());
  } else if (name !== '') {
    for (const message of dns1123LabelProblems(name)) {
      add([...at, 'name'], 'dns-1123-label', invalidValue(name, message));
    }
  }
  if (typeof port.port === 'number' && !(port.port >= 1 && port.port <= 65535)) {
    add([...at, 'port'], 'port', invalidValue(port.port, 'must be between 1 and 65535, inclusive'));
  }
  appProtocolProblems(port.appProtocol, [...at, 'appProtocol'], add);
}

/** `ValidateEndpointSlice`'s endpoints and ports. */
function endpointSliceProblems(slice: Record<string, unknown>, add: Add): void {
  const addressType = slice.addressType;
  if (Array.isArray(slice.endpoints)) {
    slice.endpoints.forEach((endpoint: unknown, i) => {
      if (isPlainObject(endpoint))
        sliceEndpointProblems(endpoint, addressType, ['endpoints', i], add);
    });
  }
  if (Array.isArray(slice.ports)) {
    const names = new Set<string>();
    slice.ports.forEach((port: unknown, i) => {
      if (!isPlainObject(port)) return;
      const at = ['ports', i];
      // Defaulted to "" before validation.
      const name = typeof port.name === 'string' ? port.name : '';
      if (name !== '') {
        for (const message of dns1123LabelProblems(name)) {
          add([...at, 'name'], 'dns-1123-label', invalidValue(name, message));
        }
      }
      if (names.has(name)) add([...at, 'name'], 'duplicate', duplicateValue(name));
      names.add(name);
      appProtocolProblems(port.appProtocol, [...at, 'appProtocol'], add);
    });
  }
}

/** `validateEndpoints`, one endpoint: addresses of the slice's type, hostname, node, hints. */
function sliceEndpointProblems(
  endpoint: Record<string, unknown>,
  addressType: unknown,
  at: (string | number)[],
  add: Add,
): void {
  const addresses = Array.isArray(endpoint.addresses) ? endpoint.addresses : [];
  const addressesAt = [...at, 'addresses'];
  if (addresses.length === 0) {
    add(addressesAt, 'required', requiredValue('must contain at least 1 address'));
  } else if (addresses.length > MAX_ADDRESSES) {
    add(addressesAt, 'max-items', tooManyValue(addresses.length, MAX_ADDRESSES));
  }
  addresses.forEach((address: unknown, j) => {
    if (typeof address !== 'string') return;
    const path = [...addressesAt, j];
    if (addressType === 'IPv4' || addressType === 'IPv6') {
      const ip = parseSloppyIp(address);
      if (ip === undefined || (ip.bits === 32) !== (addressType === 'IPv4')) {
        add(path, 'ip', invalidValue(address, `must be a valid ${addressType} address`));
      }
      for (const message of endpointIpProblems(address)) {
        add(path, 'endpoint-ip', invalidValue(address, message));
      }
    } else if (addressType === 'FQDN') {
      fullyQualifiedDomainNameProblems(address, path, add);
    }
  });
  nodeNameProblems(endpoint.nodeName, [...at, 'nodeName'], add);
  const hostname = endpoint.hostname;
  if (typeof hostname === 'string') {
    for (const message of dns1123LabelProblems(hostname)) {
      add([...at, 'hostname'], 'dns-1123-label', invalidValue(hostname, message));
    }
  }
  const hints = endpoint.hints;
  const zones = isPlainObject(hints) && Array.isArray(hints.forZones) ? hints.forZones : [];
  if (zones.length > MAX_ZONE_HINTS) {
    add([...at, 'hints', 'forZones'], 'max-items', tooManyValue(zones.length, MAX_ZONE_HINTS));
    return;
  }
  const seen = new Set<string>();
  zones.forEach((zone: unknown, k) => {
    const name = isPlainObject(zone) && typeof zone.name === 'string' ? zone.name : undefined;
    if (name === undefined) return;
    const path = [...at, 'hints', 'forZones', k, 'name'];
    if (seen.has(name)) add(path, 'duplicate', duplicateValue(name));
    seen.add(name);
    for (const message of labelValueProblems(name))
      add(path, 'label-value', invalidValue(name, message));
  });
}

/**
 * apimachinery `IsFullyQualifiedDomainName`: a trailing dot allowed, a DNS subdomain of two
 * labels at least; its first failure only, as Go returns it (the labels' messages joined).
 */
function fullyQualifiedDomainNameProblems(
  value: string,
  path: (string | number)[],
  add: Add,
): void {
  if (value === '') {
    add(path, 'required', requiredValue());
    return;
  }
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = dns1123SubdomainProblems(name);
  if (subdomain.length > 0) {
    add(path, 'fqdn', invalidValue(name, subdomain.join(',')));
    return;
  }
  const labels = name.split('.');
  if (labels.length < 2) {
    add(
      path,
      'fqdn',
      invalidValue(name, 'should be a domain with at least two segments separated by dots'),
    );
    return;
  }
  for (const label of labels) {
    const problems = dns1123LabelProblems(label);
    if (problems.length > 0) {
      add(path, 'fqdn', invalidValue(label, problems.join(',')));
      return;
    }
  }
}

/** `ValidateNodeName`: a DNS subdomain. */
function nodeNameProblems(nodeName: unknown, path: (string | number)[], add: Add): void {
  if (typeof nodeName !== 'string') return;
  for (const message of dns1123SubdomainProblems(nodeName)) {
    add(path, 'dns-1123-subdomain', invalidValue(nodeName, message));
  }
}

/** `ValidateQualifiedName` of an `appProtocol`. */
function appProtocolProblems(value: unknown, path: (string | number)[], add: Add): void {
  if (typeof value !== 'string') return;
  for (const message of qualifiedNameProblems(value)) {
    add(path, 'qualified-name', invalidValue(value, message));
  }
}
