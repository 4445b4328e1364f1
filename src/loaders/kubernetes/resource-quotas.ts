/**
 * What the API server checks of a ResourceQuota's `hard` limits in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateResourceQuotaSpec`): each resource name is a qualified name,
 * and an unprefixed one a standard resource of the quota system (`requests.cpu`, `pods`,
 * `services.loadbalancers`, huge pages; `count/deployments.apps` and
 * `nvidia.com/gpu`-style names are prefixed and taken), and each quantity is not negative, a
 * whole number for the object counts; its scopes apply to its resources (`BestEffort` to pods
 * alone, `Terminating`, `NotTerminating`, `NotBestEffort`, `PriorityClass` and
 * `CrossNamespacePodAffinity` to pods and their cpu and memory) and do not conflict. (A scope
 * selector is not checked.) Each problem at its field, in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidStringList, invalidValue } from './go-field-error.js';
import { isQuotaHugePages, resourceNameProblems, STANDARD_RESOURCES } from './resource-names.js';
import { canonicalQuantity, writtenQuantity } from './resource-quantity.js';

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
  const problems: SchemaProblem[] = scopeProblems(document.spec.scopes, Object.keys(hard));
  for (const [name, value] of Object.entries(hard)) {
    const add = (message: string, shown: unknown = name): void => {
      problems.push({
        path: jsonPointer(['spec', 'hard', name]),
        part: 'value',
        keyword: 'resource-quota',
        message: invalidValue(shown, message),
      });
    };
    // `ValidateResourceQuotaResourceName`.
    for (const message of resourceNameProblems(name)) add(message);
    if (!name.includes('/') && !isStandardQuotaResource(name)) {
      add('must be a standard resource for quota');
    }
    const quantity = writtenQuantity(value);
    if (quantity === undefined) continue;
    const text = String(value);
    if (quantity.units < 0n)
      add('must be greater than or equal to 0', canonicalQuantity(text) ?? text);
    const whole = quantity.units % 10n ** BigInt(Math.max(quantity.scale, 0)) === 0n;
    if (INTEGER_RESOURCES.has(name) && !whole) add('must be an integer', text);
  }
  return problems;
}

const POD_COUNT = new Set(['pods']);
const POD_COMPUTE = new Set([
  'cpu',
  'memory',
  'limits.cpu',
  'limits.memory',
  'requests.cpu',
  'requests.memory',
]);
/** The resources each scope may limit (`IsResourceQuotaScopeValidForResource`); others: any. */
const SCOPE_RESOURCES: Readonly<Record<string, ReadonlySet<string>>> = {
  Terminating: new Set([...POD_COUNT, ...POD_COMPUTE]),
  NotTerminating: new Set([...POD_COUNT, ...POD_COMPUTE]),
  NotBestEffort: new Set([...POD_COUNT, ...POD_COMPUTE]),
  PriorityClass: new Set([...POD_COUNT, ...POD_COMPUTE]),
  CrossNamespacePodAffinity: new Set([...POD_COUNT, ...POD_COMPUTE]),
  BestEffort: POD_COUNT,
};
const CONFLICTING_SCOPES = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
] as const;

/** `validateResourceQuotaScopes`: each scope fits each standard resource limited; no pair conflicts. */
function scopeProblems(scopes: unknown, resources: readonly string[]): SchemaProblem[] {
  if (!Array.isArray(scopes)) return [];
  const written = scopes.filter((scope): scope is string => typeof scope === 'string');
  const problems: SchemaProblem[] = [];
  const add = (message: string): void => {
    problems.push({
      path: jsonPointer(['spec', 'scopes']),
      part: 'value',
      keyword: 'resource-quota',
      message: invalidStringList(written, message),
    });
  };
  const standard = [...resources].sort().filter((name) => isStandardQuotaResource(name));
  for (const scope of written) {
    const allowed = SCOPE_RESOURCES[scope];
    if (allowed === undefined) continue;
    for (const resource of standard) {
      // Go says it once per scope and resource, without naming either; the resource is named here.
      if (!allowed.has(resource)) add(`unsupported scope applied to resource (${resource})`);
    }
  }
  for (const [a, b] of CONFLICTING_SCOPES) {
    if (written.includes(a) && written.includes(b)) add('conflicting scopes');
  }
  return problems;
}

/** `IsStandardQuotaResourceName`. */
function isStandardQuotaResource(name: string): boolean {
  return QUOTA_RESOURCES.has(name) || isQuotaHugePages(name);
}
