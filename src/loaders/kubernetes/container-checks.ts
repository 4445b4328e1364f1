/**
 * What the API server checks of a pod spec's containers in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation`: `validateContainers`, `validateContainerPorts`,
 * `ValidateContainerResourceRequirements`), beyond the OpenAPI: a container's name is a
 * DNS-1123 label and unique in the pod, a port's number is 1-65535 and its name a valid, unique
 * port name, and resources are named as a container may name them (`resource-names.ts`), their
 * quantities parse, are not negative (whole for an extended resource), and a request is at most
 * its limit, equal to it for a resource that cannot be overcommitted (which needs a limit); huge
 * pages come with cpu or memory; a Pod's (not a template's) images have no space around them. An init container's `restartPolicy` is `Always` or nothing
 * (`validateInitContainers`) from 1.29, when sidecars are on by default (1.28 drops the field),
 * to 1.34 (`ContainerRestartRules`, off by default, would take `OnFailure` and `Never`; later
 * releases are not checked). Each problem at its field, in the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  duplicateValue,
  forbiddenValue,
  invalidValue,
  requiredValue,
  unsupportedValue,
} from './go-field-error.js';
import {
  containerResourceNameProblems,
  isExtendedResource,
  isHugePages,
  overcommitAllowed,
} from './resource-names.js';
import { DNS1123_LABEL, DNS1123_LABEL_MESSAGE } from './label-syntax.js';
import { podSpecOf } from './pod-spec-paths.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import {
  canonicalQuantity,
  compareQuantities,
  writtenQuantity,
  type ParsedQuantity,
} from './resource-quantity.js';

export const MAX_LABEL_MESSAGE = 'must be no more than 63 characters';
export const PORT_RANGE_MESSAGE = 'must be between 1 and 65535, inclusive';
const IMAGE_SPACE_MESSAGE = 'must not have leading or trailing whitespace';
/** What Go's `strings.TrimSpace` trims (`unicode.IsSpace`), at either end of a string. */
const GO_OUTER_SPACE =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;
/** The container lists in the order `ValidatePodSpec` collects their names. */
const NAME_ORDER = ['containers', 'initContainers', 'ephemeralContainers'] as const;
/** The releases whose API server takes only `Always` as an init container's `restartPolicy`. */
const INIT_RESTART_ALWAYS_ONLY = { from: '1.29', to: '1.34' } as const;

/** The container problems of a built-in document of `group`/`kind` (none without a pod spec). */
export function containerProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  const { from, to } = INIT_RESTART_ALWAYS_ONLY;
  if (
    Array.isArray(spec.initContainers) &&
    releaseAtLeast(release, from) &&
    releaseAtLeast(to, release)
  ) {
    spec.initContainers.forEach((container: unknown, i) => {
      const policy = isPlainObject(container) ? container.restartPolicy : undefined;
      if (typeof policy === 'string' && policy !== 'Always') {
        add(['initContainers', i, 'restartPolicy'], 'enum', unsupportedValue(policy, ['Always']));
      }
    });
  }
  // `validateContainers`: a pod runs at least one container (an empty list passes `required`).
  if (Array.isArray(spec.containers) && spec.containers.length === 0) {
    add(['containers'], 'required', requiredValue());
  }
  const names = new Set<string>();
  const isPod = group === '' && kind === 'Pod';
  // Go's order: an init or ephemeral container repeating a container's name is the repeat.
  for (const list of NAME_ORDER) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, i) => {
      if (!isPlainObject(container)) return;
      const name = container.name;
      if (typeof name === 'string' && name !== '') {
        // apimachinery's `IsDNS1123Label`: each message it gives.
        if (name.length > 63) {
          add([list, i, 'name'], 'dns-1123-label', invalidValue(name, MAX_LABEL_MESSAGE));
        }
        if (!DNS1123_LABEL.test(name)) {
          add([list, i, 'name'], 'dns-1123-label', invalidValue(name, DNS1123_LABEL_MESSAGE));
        }
        if (names.has(name)) add([list, i, 'name'], 'duplicate', duplicateValue(name));
        names.add(name);
      }
      // `validateContainerOnlyForPod`: a Pod's own containers and any ephemeral one; a
      // template's image may be padded (" " is a placeholder some tools fill in).
      const image = container.image;
      if (typeof image === 'string' && (isPod || list === 'ephemeralContainers')) {
        if (GO_OUTER_SPACE.test(image)) {
          add([list, i, 'image'], 'image', invalidValue(image, IMAGE_SPACE_MESSAGE));
        }
      }
      portProblems(container.ports, (path, keyword, message) =>
        add([list, i, 'ports', ...path], keyword, message),
      );
      resourceProblems(container.resources, (path, keyword, message) =>
        add([list, i, 'resources', ...path], keyword, message),
      );
    });
  }
  return problems;
}

type Add = (path: (string | number)[], keyword: string, message: string) => void;

function portProblems(ports: unknown, add: Add): void {
  if (!Array.isArray(ports)) return;
  const names = new Set<string>();
  ports.forEach((port: unknown, i) => {
    if (!isPlainObject(port)) return;
    const name = port.name;
    if (typeof name === 'string' && name !== '') {
      const why = portNameProblems(name);
      for (const message of why) add([i, 'name'], 'port-name', invalidValue(name, message));
      if (why.length === 0 && names.has(name)) add([i, 'name'], 'duplicate', duplicateValue(name));
      names.add(name);
    }
    const containerPort = port.containerPort;
    if (containerPort === 0) add([i, 'containerPort'], 'required', requiredValue());
    else if (isOutOfPortRange(containerPort)) {
      add([i, 'containerPort'], 'port-range', invalidValue(containerPort, PORT_RANGE_MESSAGE));
    }
    const hostPort = port.hostPort;
    if (hostPort !== 0 && isOutOfPortRange(hostPort)) {
      add([i, 'hostPort'], 'port-range', invalidValue(hostPort, PORT_RANGE_MESSAGE));
    }
  });
}

export function isPortNumber(port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}

/**
 * Whether a port out of range is the Go validation's to report: a value that is no int32 does
 * not decode, and the schema's `format` reports it already.
 */
export function isOutOfPortRange(port: unknown): port is number {
  return (
    typeof port === 'number' &&
    Number.isInteger(port) &&
    port >= -(2 ** 31) &&
    port < 2 ** 31 &&
    !isPortNumber(port)
  );
}

/** apimachinery's `IsValidPortName`, every message it gives. */
export function portNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length > 15) problems.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) {
    problems.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!/[a-z]/.test(name)) problems.push('must contain at least one letter (a-z)');
  if (name.includes('--')) problems.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) {
    problems.push('must not begin or end with a hyphen');
  }
  return problems;
}

/**
 * A quantity as the API server prints it in a message (`Quantity.String()`, canonical: `0.5` is
 * `500m`, `+1Ki` is `1Ki`, `1000` is `1k`); as written when it does not parse.
 */
function goQuantity(written: string | number): string {
  const text = String(written);
  return canonicalQuantity(text) ?? text;
}

function resourceProblems(resources: unknown, add: Add): void {
  if (!isPlainObject(resources)) return;
  const named = ['limits', 'requests'].flatMap((part) =>
    isPlainObject(resources[part]) ? Object.keys(resources[part]) : [],
  );
  if (named.some(isHugePages) && !named.some((name) => name === 'cpu' || name === 'memory')) {
    add([], 'huge-pages', forbiddenValue('HugePages require cpu or memory'));
  }
  const read = (part: 'limits' | 'requests'): Map<string, ParsedQuantity> => {
    const out = new Map<string, ParsedQuantity>();
    const values = resources[part];
    if (!isPlainObject(values)) return out;
    for (const [name, written] of Object.entries(values)) {
      for (const message of containerResourceNameProblems(name)) {
        add([part, name], 'resource-name', invalidValue(name, message));
      }
      if (typeof written !== 'string' && typeof written !== 'number') continue;
      // One that does not parse is the schema walk's (`structural-validator.ts`).
      const quantity = writtenQuantity(written);
      if (quantity === undefined) continue;
      if (quantity.units < 0n) {
        add(
          [part, name],
          'quantity',
          invalidValue(goQuantity(written), 'must be greater than or equal to 0'),
        );
        continue;
      }
      // `ValidateResourceQuantityValue`: an extended resource is counted in whole units.
      if (isExtendedResource(name) && quantity.units % 10n ** BigInt(quantity.scale) !== 0n) {
        add([part, name], 'quantity', invalidValue(String(written), 'must be an integer'));
      }
      out.set(name, quantity);
    }
    return out;
  };
  const limits = read('limits');
  const requests = read('requests');
  // Go prints the quantities it parsed (`Quantity.String()`), not what was written.
  const written = (part: 'limits' | 'requests', name: string): string =>
    goQuantity((resources[part] as Record<string, unknown>)[name] as string | number);
  for (const [name, request] of requests) {
    const limit = limits.get(name);
    // A resource that cannot be overcommitted (huge pages, an extended one) has its limit.
    if (!overcommitAllowed(name)) {
      if (limit === undefined) {
        add(
          ['limits'],
          'request-limit',
          requiredValue('Limit must be set for non overcommitable resources'),
        );
      } else if (compareQuantities(request, limit) !== 0) {
        add(
          ['requests'],
          'request-limit',
          invalidValue(
            written('requests', name),
            `must be equal to ${name} limit of ${written('limits', name)}`,
          ),
        );
      }
      continue;
    }
    if (limit !== undefined && compareQuantities(request, limit) > 0) {
      add(
        ['requests'],
        'request-limit',
        invalidValue(
          written('requests', name),
          `must be less than or equal to ${name} limit of ${written('limits', name)}`,
        ),
      );
    }
  }
}
