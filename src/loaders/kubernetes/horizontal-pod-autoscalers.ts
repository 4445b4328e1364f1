/**
 * What the API server checks of an `autoscaling/v2` HorizontalPodAutoscaler's spec in Go
 * (k8s.io/kubernetes `pkg/apis/autoscaling/validation`), beyond its OpenAPI and the replica
 * bounds (`rollout-bounds.ts`):
 *
 * - the scale target and a described object name a kind and a name that are path segments;
 * - each metric populates the source its `type` names, and only it; that source names its metric
 *   (or resource, or container), and its target has a type of `Utilization`, `Value` or
 *   `AverageValue`, positive quantities, a utilization above 0, and the values its source needs
 *   (a Pods metric an `averageValue`, a Resource metric a utilization or an average value, not
 *   both, ...);
 * - a scaling rule's stabilization window is 0-3600 s, an explicit list of policies is not empty,
 *   and each policy's value is above 0 and its period 1-1800 s (left out, the policies are
 *   defaulted).
 *
 * Each problem at its field, in the API server's words (a quantity quoted as written).
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { dns1123LabelProblems, pathSegmentProblems, type Add } from './label-syntax.js';
import { writtenQuantity } from './resource-quantity.js';
import { containerResourceNameProblems } from './resource-names.js';

/** The sources of a metric, in the order Go checks the first one present. */
const SOURCES = ['object', 'external', 'pods', 'resource', 'containerResource'] as const;
/** The field each metric `type` populates. */
const SOURCE_OF_TYPE: Readonly<Record<string, (typeof SOURCES)[number]>> = {
  Object: 'object',
  External: 'external',
  Pods: 'pods',
  Resource: 'resource',
  ContainerResource: 'containerResource',
};
const TARGET_TYPES = new Set(['Utilization', 'Value', 'AverageValue']);
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

/** The spec problems of a built-in document (a HorizontalPodAutoscaler's only). */
export function horizontalPodAutoscalerProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'autoscaling' || kind !== 'HorizontalPodAutoscaler') return [];
  if (!isPlainObject(document.spec)) return [];
  const spec = document.spec;
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(['spec', ...path]), part: 'value', keyword, message });
  };
  referenceProblems(spec.scaleTargetRef, (path, k, m) => add(['scaleTargetRef', ...path], k, m));
  // v1 has no metrics nor behavior (v2beta2, before 1.26, is v2's shape): its CPU target is
  // converted to a Utilization metric, whose `validateMetricTarget` refuses one below 1.
  if (document.apiVersion === 'autoscaling/v1') {
    const percentage = spec.targetCPUUtilizationPercentage;
    if (typeof percentage === 'number' && percentage < 1) {
      add(
        ['targetCPUUtilizationPercentage'],
        'metric-target',
        invalidValue(percentage, 'must be greater than 0'),
      );
    }
    return problems;
  }
  if (Array.isArray(spec.metrics)) {
    spec.metrics.forEach((metric: unknown, i) => {
      if (isPlainObject(metric)) {
        metricProblems(metric, (path, k, m) => add(['metrics', i, ...path], k, m));
      }
    });
  }
  if (isPlainObject(spec.behavior)) {
    for (const direction of ['scaleUp', 'scaleDown']) {
      const rules = spec.behavior[direction];
      if (isPlainObject(rules)) {
        scalingRuleProblems(rules, (path, k, m) => add(['behavior', direction, ...path], k, m));
      }
    }
  }
  return problems;
}

/** `ValidateCrossVersionObjectReference`: a kind and a name, both path segments. */
function referenceProblems(reference: unknown, add: Add): void {
  if (!isPlainObject(reference)) return;
  for (const field of ['kind', 'name']) {
    const value = reference[field];
    if (value === '') add([field], 'required', requiredValue());
    else if (typeof value === 'string') {
      for (const message of pathSegmentProblems(value)) {
        add([field], 'reference', invalidValue(value, message));
      }
    }
  }
}

/** `validateMetricSpec`: the source the type names, only it, checked when it is the first. */
function metricProblems(metric: Record<string, unknown>, add: Add): void {
  const present = SOURCES.filter(
    (source) => metric[source] !== undefined && metric[source] !== null,
  );
  const first = present[0];
  if (first !== undefined && isPlainObject(metric[first])) {
    sourceProblems(first, metric[first], (path, k, m) => add([first, ...path], k, m));
  }
  const expected = typeof metric.type === 'string' ? SOURCE_OF_TYPE[metric.type] : undefined;
  if (expected === undefined) return;
  if (!present.includes(expected)) {
    add(
      [expected],
      'metric-source',
      requiredValue('must populate information for the given metric source'),
    );
  }
  if (present.length !== 1) {
    for (const source of present) {
      if (source !== expected) {
        add(
          [source],
          'metric-source',
          forbiddenValue('must populate the given metric source only'),
        );
      }
    }
  }
}

function sourceProblems(
  source: (typeof SOURCES)[number],
  value: Record<string, unknown>,
  add: Add,
): void {
  const target = isPlainObject(value.target) ? value.target : {};
  const has = (field: string): boolean => target[field] !== undefined && target[field] !== null;
  if (source === 'object')
    referenceProblems(value.describedObject, (p, k, m) => add(['describedObject', ...p], k, m));
  if (source === 'object' || source === 'external' || source === 'pods') {
    metricNameProblems(value.metric, (p, k, m) => add(['metric', ...p], k, m));
  } else {
    if (value.name === '') add(['name'], 'required', requiredValue('must specify a resource name'));
    if (source === 'containerResource') {
      const name = value.name;
      if (typeof name === 'string' && name !== '') {
        for (const message of containerResourceNameProblems(name)) {
          add(['name'], 'resource-name', invalidValue(name, message));
        }
      }
      const container = value.container;
      if (container === '')
        add(['container'], 'required', requiredValue('must specify a container'));
      else if (typeof container === 'string') {
        for (const message of dns1123LabelProblems(container)) {
          add(['container'], 'container', invalidValue(container, message));
        }
      }
    }
  }
  targetProblems(target, (p, k, m) => add(['target', ...p], k, m));
  switch (source) {
    case 'object':
      if (!has('value') && !has('averageValue')) {
        add(
          ['target', 'averageValue'],
          'required',
          requiredValue('must set either a target value or averageValue'),
        );
      }
      return;
    case 'external':
      if (!has('value') && !has('averageValue')) {
        add(
          ['target', 'averageValue'],
          'required',
          requiredValue('must set either a target value for metric or a per-pod target'),
        );
      }
      if (has('value') && has('averageValue')) {
        add(
          ['target', 'value'],
          'metric-target',
          forbiddenValue('may not set both a target value for metric and a per-pod target'),
        );
      }
      return;
    case 'pods':
      if (!has('averageValue')) {
        add(
          ['target', 'averageValue'],
          'required',
          requiredValue('must specify a positive target averageValue'),
        );
      }
      return;
    default:
      if (!has('averageUtilization') && !has('averageValue')) {
        add(
          ['target', 'averageUtilization'],
          'required',
          requiredValue('must set either a target raw value or a target utilization'),
        );
      }
      if (has('averageUtilization') && has('averageValue')) {
        add(
          ['target', 'averageValue'],
          'metric-target',
          forbiddenValue('may not set both a target raw value and a target utilization'),
        );
      }
  }
}

/** `validateMetricIdentifier`: a name that is a path segment. */
function metricNameProblems(metric: unknown, add: Add): void {
  if (!isPlainObject(metric)) return;
  const name = metric.name;
  if (name === '') add(['name'], 'required', requiredValue('must specify a metric name'));
  else if (typeof name === 'string') {
    for (const message of pathSegmentProblems(name))
      add(['name'], 'metric-name', invalidValue(name, message));
  }
}

/** `validateMetricTarget`. */
function targetProblems(target: Record<string, unknown>, add: Add): void {
  const type = target.type;
  if (type === undefined || type === null || type === '') {
    add(['type'], 'required', requiredValue('must specify a metric target type'));
  }
  if (typeof type !== 'string' || !TARGET_TYPES.has(type)) {
    add(
      ['type'],
      'metric-target',
      invalidValue(type ?? '', 'must be either Utilization, Value, or AverageValue'),
    );
  }
  for (const field of ['value', 'averageValue']) {
    const quantity = writtenQuantity(target[field]);
    if (quantity !== undefined && quantity.units <= 0n) {
      add([field], 'metric-target', invalidValue(String(target[field]), 'must be positive'));
    }
  }
  const utilization = target.averageUtilization;
  if (typeof utilization === 'number' && utilization < 1) {
    add(
      ['averageUtilization'],
      'metric-target',
      invalidValue(utilization, 'must be greater than 0'),
    );
  }
}

/** `validateScalingRules` and `validateScalingPolicy`. */
function scalingRuleProblems(rules: Record<string, unknown>, add: Add): void {
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) {
    add(
      ['stabilizationWindowSeconds'],
      'behavior',
      invalidValue(window, 'must be greater than or equal to zero'),
    );
  }
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    add(
      ['stabilizationWindowSeconds'],
      'behavior',
      invalidValue(window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`),
    );
  }
  const policies = rules.policies;
  if (!Array.isArray(policies)) return;
  if (policies.length === 0) {
    add(['policies'], 'required', requiredValue('must specify at least one Policy'));
  }
  policies.forEach((policy: unknown, i) => {
    if (!isPlainObject(policy)) return;
    const { value, periodSeconds } = policy;
    if (typeof value === 'number' && value <= 0) {
      add(['policies', i, 'value'], 'behavior', invalidValue(value, 'must be greater than zero'));
    }
    if (typeof periodSeconds === 'number' && periodSeconds <= 0) {
      add(
        ['policies', i, 'periodSeconds'],
        'behavior',
        invalidValue(periodSeconds, 'must be greater than zero'),
      );
    }
    if (typeof periodSeconds === 'number' && periodSeconds > MAX_PERIOD_SECONDS) {
      add(
        ['policies', i, 'periodSeconds'],
        'behavior',
        invalidValue(periodSeconds, `must be less than or equal to ${MAX_PERIOD_SECONDS}`),
      );
    }
  });
}
