/**
 * What the API server checks of a ResourceQuota's `hard` limits in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateResourceQuotaSpec`): each resource name is a qualified name,
 * and an unprefixed one a standard resource of the quota system (`requests.cpu`, `pods`,
 * `services.loadbalancers`, huge pages; `count/deployments.apps` and
 * `nvidia.com/gpu`-style names are prefixed and taken), and each quantity is not negative, a
 * whole number for the object counts; its scopes apply to its resources (`BestEffort` to pods
 * alone, `Terminating`, `NotTerminating`, `NotBestEffort`, `PriorityClass` and
 * `CrossNamespacePodAffinity` to pods and their cpu and memory) and do not conflict, in its
 * `scopes` list and in its scope selector, whose pod-class scopes take `Exists` alone and whose
 * operators take values as they say. Each problem at its field, in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidStringList, invalidValue, requiredValue } from './go-field-error.js';
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
  const hard = isPlainObject(document.spec.hard) ? document.spec.hard : {};
  const problems: SchemaProblem[] = [
    ...scopeProblems(document.spec.scopes, Object.keys(hard)),
    ...scopeSelectorProblems(document.spec.scopeSelector, Object.keys(hard)),
  ];
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

/** The scopes a selector may only ask to exist. */
const EXISTS_ONLY_SCOPES = new Set([
  'BestEffort',
  'NotBestEffort',
  'Terminating',
  'NotTerminating',
  'CrossNamespacePodAffinity',
]);

/**
 * `validateScopedResourceSelectorRequirement`: each expression's scope fits each standard
 * resource limited, a pod-class scope only with `Exists`, values with `In` and `NotIn` and none
 * with `Exists` and `DoesNotExist`, and no pair of scopes conflicts. (Go prints the whole
 * selector, or the quota's `scopes` list, as the value of the first and last; the expressions'
 * own scopes are shown here.)
 */
function scopeSelectorProblems(selector: unknown, resources: readonly string[]): SchemaProblem[] {
  const expressions = isPlainObject(selector) ? selector.matchExpressions : undefined;
  if (!Array.isArray(expressions)) return [];
  const problems: SchemaProblem[] = [];
  const add = (path: (string | number)[], message: string): void => {
    problems.push({
      path: jsonPointer(['spec', 'scopeSelector', 'matchExpressions', ...path]),
      part: 'value',
      keyword: 'resource-quota',
      message,
    });
  };
  const standard = [...resources].sort().filter((name) => isStandardQuotaResource(name));
  const scopes = new Set<string>();
  expressions.forEach((expression: unknown, i) => {
    if (!isPlainObject(expression)) return;
    const { scopeName: scope, operator } = expression;
    const values = Array.isArray(expression.values) ? expression.values : [];
    if (typeof scope === 'string') {
      const allowed = SCOPE_RESOURCES[scope];
      for (const resource of allowed === undefined ? [] : standard) {
        if (!allowed?.has(resource)) {
          add([i], invalidValue(scope, `unsupported scope applied to resource (${resource})`));
        }
      }
      if (EXISTS_ONLY_SCOPES.has(scope) && operator !== 'Exists') {
        add(
          [i, 'operator'],
          invalidValue(
            operator ?? '',
            "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
          ),
        );
      }
      scopes.add(scope);
    }
    if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
      add(
        [i, 'values'],
        requiredValue(
          "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
        ),
      );
    }
    if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
      add(
        [i, 'values'],
        invalidStringList(
          values.map(String),
          "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
        ),
      );
    }
  });
  for (const [a, b] of CONFLICTING_SCOPES) {
    if (scopes.has(a) && scopes.has(b)) add([], invalidStringList([a, b], 'conflicting scopes'));
  }
  return problems;
}

/** `IsStandardQuotaResourceName`. */
function isStandardQuotaResource(name: string): boolean {
  return QUOTA_RESOURCES.has(name) || isQuotaHugePages(name);
}
