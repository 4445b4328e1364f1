/**
 * What the API server checks in Go of a NetworkPolicy, which the OpenAPI does not
 * (k8s.io/kubernetes `pkg/apis/networking/validation` `ValidateNetworkPolicySpec`): its
 * selectors are label selectors; a rule's peer names a pod selector, a namespace selector or an
 * `ipBlock`, and an `ipBlock` alone (`ValidateNetworkPolicyPeer`); an `ipBlock`'s `cidr` is a
 * CIDR and each `except` a strict subset of it (`ValidateIPBlock`); a port is a port number or
 * name and an `endPort` follows a numeric `port` it is not below (`ValidateNetworkPolicyPort`);
 * `policyTypes` lists two at most. Each problem at its field, in the API server's words. From
 * 1.33 an `ipBlock`'s blocks in a non-standard form are warned of, as the API server's
 * `networkPolicyWarnings` does, and from 1.36 its `cidr` in such a form is refused
 * (`ip-warnings.ts`).
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { PORT_RANGE_MESSAGE, isOutOfPortRange, portNameProblems } from './container-checks.js';
import {
  forbiddenValue,
  invalidStructValue,
  invalidValue,
  requiredValue,
} from './go-field-error.js';
import { cidrContains, parseSloppyCidr } from './ip-address.js';
import { labelSelectorProblems } from './label-syntax.js';
import { apiWarning, type Warn } from './api-warnings.js';
import { STRICT_IP_RELEASE, strictWarning, warnOfCidr, type Refuse } from './ip-warnings.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';

type Path = readonly (string | number)[];
type Add = (path: Path, keyword: string, message: string) => void;

/** The rule lists of a spec and the name of their peers' list. */
const RULES = [
  ['ingress', 'from'],
  ['egress', 'to'],
] as const;

/** The problems of a built-in NetworkPolicy document. */
export function networkPolicyProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  if (group !== 'networking.k8s.io' || kind !== 'NetworkPolicy') return [];
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  selectorProblems(spec.podSelector, ['spec', 'podSelector'], add);
  for (const [list, peers] of RULES) {
    const rules = spec[list];
    if (!Array.isArray(rules)) continue;
    rules.forEach((rule: unknown, i) => {
      if (!isPlainObject(rule)) return;
      const at = ['spec', list, i];
      if (Array.isArray(rule.ports)) {
        rule.ports.forEach((port: unknown, j) => {
          if (isPlainObject(port)) portProblems(port, [...at, 'ports', j], add);
        });
      }
      const peerList = rule[peers];
      if (Array.isArray(peerList)) {
        peerList.forEach((peer: unknown, j) => {
          if (isPlainObject(peer)) peerProblems(peer, [...at, peers, j], add);
        });
      }
    });
  }
  const policyTypes = spec.policyTypes;
  if (Array.isArray(policyTypes) && policyTypes.length > 2) {
    add(
      ['spec', 'policyTypes'],
      'maxItems',
      invalidStructValue(policyTypes, 'may not specify more than two policyTypes'),
    );
  }
  if (releaseAtLeast(release, '1.33')) {
    const warn: Warn = (path, message) => problems.push(apiWarning(path, message));
    const refuse: Refuse = (path, message) => add(path, 'ip-address', message);
    ipBlockWarnings(spec, warn, releaseAtLeast(release, STRICT_IP_RELEASE) ? refuse : undefined);
  }
  return problems;
}

/**
 * `networkPolicyWarnings`: each `ipBlock`'s `cidr` and `except` blocks in a form to be refused;
 * with `refuse` (from 1.36) its `cidr` is refused instead, as the strict `ValidateIPBlock` does.
 */
function ipBlockWarnings(spec: Record<string, unknown>, warn: Warn, refuse?: Refuse): void {
  for (const [list, peers] of RULES) {
    const rules = spec[list];
    if (!Array.isArray(rules)) continue;
    rules.forEach((rule: unknown, i) => {
      const peerList = isPlainObject(rule) ? rule[peers] : undefined;
      if (!Array.isArray(peerList)) return;
      peerList.forEach((peer: unknown, j) => {
        const ipBlock = isPlainObject(peer) ? peer.ipBlock : undefined;
        if (!isPlainObject(ipBlock)) return;
        const at = ['spec', list, i, peers, j, 'ipBlock'];
        warnOfCidr(ipBlock.cidr, [...at, 'cidr'], warn, refuse);
        // An exception is only warned of (in 1.36's words from 1.36).
        const warnExcept = refuse === undefined ? warn : strictWarning(warn);
        if (Array.isArray(ipBlock.except)) {
          ipBlock.except.forEach((except: unknown, k) =>
            warnOfCidr(except, [...at, 'except', k], warnExcept),
          );
        }
      });
    });
  }
}

function selectorProblems(selector: unknown, at: Path, add: Add): void {
  labelSelectorProblems(selector, (path, keyword, message) =>
    add([...at, ...path], keyword, message),
  );
}

/** `ValidateNetworkPolicyPort`. */
function portProblems(port: Record<string, unknown>, at: Path, add: Add): void {
  const value = port.port;
  const endPort = typeof port.endPort === 'number' ? port.endPort : undefined;
  if (typeof value === 'number') {
    if (isOutOfPortRange(value))
      add([...at, 'port'], 'port-range', invalidValue(value, PORT_RANGE_MESSAGE));
    if (endPort === undefined) return;
    if (endPort < value) {
      // Go prints the port, not the end port, as the value.
      add(
        [...at, 'endPort'],
        'end-port',
        invalidValue(value, 'must be greater than or equal to `port`'),
      );
    }
    if (isOutOfPortRange(endPort)) {
      add([...at, 'endPort'], 'port-range', invalidValue(endPort, PORT_RANGE_MESSAGE));
    }
  } else if (typeof value === 'string') {
    if (endPort !== undefined) {
      add(
        [...at, 'endPort'],
        'end-port',
        invalidValue(endPort, 'may not be specified when `port` is non-numeric'),
      );
    }
    for (const message of portNameProblems(value)) {
      add([...at, 'port'], 'port-name', invalidValue(value, message));
    }
  } else if (endPort !== undefined && (value === undefined || value === null)) {
    add(
      [...at, 'endPort'],
      'end-port',
      invalidValue(endPort, 'may not be specified when `port` is not specified'),
    );
  }
}

/** `ValidateNetworkPolicyPeer`: one kind of peer, or selectors without an `ipBlock`. */
function peerProblems(peer: Record<string, unknown>, at: Path, add: Add): void {
  let peers = 0;
  for (const field of ['podSelector', 'namespaceSelector'] as const) {
    if (peer[field] === undefined || peer[field] === null) continue;
    peers++;
    selectorProblems(peer[field], [...at, field], add);
  }
  const ipBlock = peer.ipBlock;
  const hasIpBlock = ipBlock !== undefined && ipBlock !== null;
  if (hasIpBlock) {
    peers++;
    if (isPlainObject(ipBlock)) ipBlockProblems(ipBlock, [...at, 'ipBlock'], add);
  }
  if (peers === 0) add(at, 'required', requiredValue('must specify a peer'));
  else if (peers > 1 && hasIpBlock) {
    add(at, 'forbidden', forbiddenValue('may not specify both ipBlock and another peer'));
  }
}

/** `ValidateIPBlock`: a CIDR, and exceptions strictly inside it. */
function ipBlockProblems(ipBlock: Record<string, unknown>, at: Path, add: Add): void {
  const cidr = ipBlock.cidr;
  if (typeof cidr !== 'string') return; // absent: the schema requires it
  if (cidr === '') {
    add([...at, 'cidr'], 'required', requiredValue());
    return;
  }
  const block = parseSloppyCidr(cidr);
  if (block === undefined) {
    add([...at, 'cidr'], 'cidr', invalidValue(cidr, 'not a valid CIDR'));
    return;
  }
  if (!Array.isArray(ipBlock.except)) return;
  for (const [i, except] of ipBlock.except.entries()) {
    if (typeof except !== 'string') continue;
    const inner = parseSloppyCidr(except);
    if (inner === undefined) {
      // Go stops at the first exception that does not parse.
      add([...at, 'except', i], 'cidr', invalidValue(except, 'not a valid CIDR'));
      return;
    }
    if (!cidrContains(block, inner) || block.prefix >= inner.prefix) {
      add([...at, 'except', i], 'cidr', invalidValue(except, 'must be a strict subset of `cidr`'));
    }
  }
}
