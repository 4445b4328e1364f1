/**
 * What the API server checks of a ResourceQuota's `hard` limits in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateResourceQuotaSpec`): each resource name is a qualified name,
 * and an unprefixed one a standard resource of the quota system (`requests.cpu`, `pods`,
 * `services.loadbalancers`, huge pages; `count/deployments.apps` and
 * `nvidia.com/gpu`-style names are prefixed and taken), and each quantity is not negative, a
 * whole number for the object counts. (Scopes are not checked.) Each problem at its field, in
 * the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue } from './go-field-error.js';
import { qualifiedNameProblems } from './label-syntax.js';
import { canonicalQuantity, parseResourceQuantity } from './resource-quantity.js';

/** `standardResources`: what an unprefixed resource name may be. */
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);
/** `standardQuotaResources`: the standard resources a quota tracks (not `storage`). */
const QUOTA_RESOURCES = new Set([...STANDARD_RESOURCES].filter((name) => name !== 'storage'));
/** `integerResources`: object counts, whole numbers. */
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

/** The problems of a built-in document of `group`/`kind` (a ResourceQuota's only). */
export function resourceQuotaProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || kind !== 'ResourceQuota' || !isPlainObject(document.spec)) return [];
  const hard = document.spec.hard;
  if (!isPlainObject(hard)) return [];
  const problems: SchemaProblem[] = [];
  for (const [name, value] of Object.entries(hard)) {
    const add = (message: string, shown: unknown = name): void => {
      problems.push({
        path: jsonPointer(['spec', 'hard', name]),
        part: 'value',
        keyword: 'resource-quota',
        message: invalidValue(shown, message),
      });
    };
    const nameMessages = qualifiedNameProblems(name);
    for (const message of nameMessages) add(message);
    if (!name.includes('/')) {
      const hugePages = name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
      if (nameMessages.length === 0 && !STANDARD_RESOURCES.has(name) && !hugePages) {
        add('must be a standard resource type or fully qualified');
      }
      if (!QUOTA_RESOURCES.has(name) && !hugePages) add('must be a standard resource for quota');
    }
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value);
    let quantity: ReturnType<typeof parseResourceQuantity>;
    try {
      quantity = parseResourceQuantity(text);
    } catch {
      continue; // The schema's quantity check says what is wrong with it.
    }
    if (quantity.units < 0n)
      add('must be greater than or equal to 0', canonicalQuantity(text) ?? text);
    const whole = quantity.units % 10n ** BigInt(Math.max(quantity.scale, 0)) === 0n;
    if (INTEGER_RESOURCES.has(name) && !whole) add('must be an integer', text);
  }
  return problems;
}
