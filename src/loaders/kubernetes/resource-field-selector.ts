/**
 * The API server's check of a downward API `resourceFieldRef` (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateContainerResourceFieldSelector`,
 * `validateContainerResourceDivisor`), for an environment variable and for a downward API volume
 * file, which name the same resources: a volume file names its container; the resource is one
 * of a container's limits or requests of cpu, memory or ephemeral storage, or of huge pages; a
 * `divisor` other than zero is, as Go prints it, one of those its resource takes (`1m` or `1`
 * for cpu, `1`, `1k`... `1E`, `1Ki`... `1Ei` for the others). Each problem in the API server's
 * words.
 */

import { invalidValue, requiredValue, unsupportedValue } from './go-field-error.js';
import type { Add } from './label-syntax.js';
import { canonicalQuantity } from './resource-quantity.js';

/** The resources a `resourceFieldRef` may name (sorted, as Go lists them). */
const RESOURCE_FIELDS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
const HUGE_PAGES_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

const CPU_DIVISORS = ['1m', '1'];
const BYTE_DIVISORS = [
  '1',
  '1k',
  '1M',
  '1G',
  '1T',
  '1P',
  '1E',
  '1Ki',
  '1Mi',
  '1Gi',
  '1Ti',
  '1Pi',
  '1Ei',
];
const BYTE_DIVISORS_TEXT = BYTE_DIVISORS.join(', ');

/** The divisors `resource` takes and the message that lists them, if Go checks its divisor. */
function divisorsOf(resource: string): [readonly string[], string] | undefined {
  switch (resource) {
    case 'limits.cpu':
    case 'requests.cpu':
      return [CPU_DIVISORS, "only divisor's values 1m and 1 are supported with the cpu resource"];
    case 'limits.memory':
    case 'requests.memory':
      return [
        BYTE_DIVISORS,
        `only divisor's values ${BYTE_DIVISORS_TEXT} are supported with the memory resource`,
      ];
    case 'limits.ephemeral-storage':
    case 'requests.ephemeral-storage':
      return [
        BYTE_DIVISORS,
        `only divisor's values ${BYTE_DIVISORS_TEXT} are supported with the local ephemeral storage resource`,
      ];
  }
  if (HUGE_PAGES_PREFIXES.some((prefix) => resource.startsWith(prefix))) {
    return [
      BYTE_DIVISORS,
      `only divisor's values ${BYTE_DIVISORS_TEXT} are supported with the hugepages resource`,
    ];
  }
  return undefined;
}

/**
 * `validateContainerResourceFieldSelector` of a `resourceFieldRef`, of a volume file if `volume`;
 * `add` takes paths below the `resourceFieldRef`.
 */
export function resourceFieldSelectorProblems(
  selector: Record<string, unknown>,
  volume: boolean,
  add: Add,
): void {
  const container = selector.containerName;
  // An absent `resource` is the OpenAPI's to report (it requires one).
  const resource = selector.resource;
  if (volume && (container === undefined || container === null || container === '')) {
    add(['containerName'], 'required', requiredValue());
  } else if (resource === '') {
    add(['resource'], 'required', requiredValue());
  } else if (
    typeof resource === 'string' &&
    !RESOURCE_FIELDS.includes(resource) &&
    !HUGE_PAGES_PREFIXES.some((prefix) => resource.startsWith(prefix))
  ) {
    add(['resource'], 'resource-field', unsupportedValue(resource, RESOURCE_FIELDS));
  }
  const divisor = selector.divisor;
  if (
    typeof resource !== 'string' ||
    (typeof divisor !== 'string' && typeof divisor !== 'number')
  ) {
    return;
  }
  const printed = canonicalQuantity(String(divisor));
  // A divisor that does not parse is the quantity check's to report; zero means unset.
  if (printed === undefined || printed === '0') return;
  const allowed = divisorsOf(resource);
  if (allowed !== undefined && !allowed[0].includes(printed)) {
    add(['divisor'], 'resource-field', invalidValue(resource, allowed[1]));
  }
}
