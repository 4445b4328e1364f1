/**
 * What the API server checks of a Job's `podFailurePolicy` rules in Go (k8s.io/kubernetes
 * `pkg/apis/batch/validation` `validatePodFailurePolicyRule`, `...RuleOnExitCodes`,
 * `...RuleOnPodConditions`), beyond the enums of its OpenAPI: a rule matches on exit codes or on
 * pod conditions, exactly one; `FailIndex` needs `backoffLimitPerIndex`; exit codes are some,
 * ordered, none twice and no 0 for `In`, of a container or init container of the template; a
 * condition's type is a qualified name and its status `True`, `False` or `Unknown`. A CronJob's
 * job template is checked alike. Each problem at its field, in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { duplicateValue, invalidValue, tooManyValue, unsupportedValue } from './go-field-error.js';
import { qualifiedNameProblems, type Add } from './label-syntax.js';

/** `maxPodFailurePolicyRules`, `maxPodFailurePolicyOnExitCodesValues`. */
const MAX_RULES = 20;
const MAX_EXIT_CODES = 255;
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** The pod failure policy problems of a built-in document of `group`/`kind` (a Job's, a CronJob's). */
export function podFailurePolicyProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'batch') return [];
  const at =
    kind === 'Job' ? ['spec'] : kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec'] : undefined;
  if (at === undefined) return [];
  let jobSpec: unknown = document;
  for (const key of at) jobSpec = isPlainObject(jobSpec) ? jobSpec[key] : undefined;
  if (!isPlainObject(jobSpec) || !isPlainObject(jobSpec.podFailurePolicy)) return [];
  const rules = jobSpec.podFailurePolicy.rules;
  if (!Array.isArray(rules)) return [];
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({
      path: jsonPointer([...at, 'podFailurePolicy', 'rules', ...path]),
      part: 'value',
      keyword,
      message,
    });
  };
  if (rules.length > MAX_RULES) add([], 'max-items', tooManyValue(rules.length, MAX_RULES));
  const containers = containerNames(jobSpec.template);
  const perIndex =
    jobSpec.backoffLimitPerIndex !== undefined && jobSpec.backoffLimitPerIndex !== null;
  rules.forEach((rule: unknown, i) => {
    if (!isPlainObject(rule)) return;
    const ruleAdd: Add = (path, keyword, message) => add([i, ...path], keyword, message);
    if (rule.action === 'FailIndex' && !perIndex) {
      ruleAdd(
        ['action'],
        'fail-index',
        invalidValue('FailIndex', 'requires the backoffLimitPerIndex to be set'),
      );
    }
    const onExitCodes = isPlainObject(rule.onExitCodes) ? rule.onExitCodes : undefined;
    const onPodConditions = Array.isArray(rule.onPodConditions) ? rule.onPodConditions : [];
    if (onExitCodes !== undefined) {
      exitCodeProblems(onExitCodes, containers, (path, keyword, message) =>
        ruleAdd(['onExitCodes', ...path], keyword, message),
      );
    }
    onPodConditions.forEach((pattern: unknown, j) => {
      if (!isPlainObject(pattern)) return;
      const at = ['onPodConditions', j];
      if (typeof pattern.type === 'string') {
        for (const message of qualifiedNameProblems(pattern.type)) {
          ruleAdd([...at, 'type'], 'qualified-name', invalidValue(pattern.type, message));
        }
      }
      const status = pattern.status;
      if (typeof status === 'string' && status !== '' && !CONDITION_STATUSES.includes(status)) {
        ruleAdd([...at, 'status'], 'enum', unsupportedValue(status, CONDITION_STATUSES));
      }
    });
    if (onExitCodes !== undefined && onPodConditions.length > 0) {
      ruleAdd(
        [],
        'one-of',
        'Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      );
    }
    if (onExitCodes === undefined && onPodConditions.length === 0) {
      ruleAdd(
        [],
        'one-of',
        'Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      );
    }
  });
  return problems;
}

/** The names of the pod template's containers and init containers. */
function containerNames(template: unknown): Set<string> {
  const names = new Set<string>();
  const spec = isPlainObject(template) ? template.spec : undefined;
  if (!isPlainObject(spec)) return names;
  for (const list of [spec.containers, spec.initContainers]) {
    if (!Array.isArray(list)) continue;
    for (const container of list) {
      if (isPlainObject(container) && typeof container.name === 'string') {
        names.add(container.name);
      }
    }
  }
  return names;
}

/** `validatePodFailurePolicyRuleOnExitCodes` (the operator's enum is the schema's). */
function exitCodeProblems(
  onExitCodes: Record<string, unknown>,
  containers: Set<string>,
  add: Add,
): void {
  const name = onExitCodes.containerName;
  if (typeof name === 'string' && !containers.has(name)) {
    add(
      ['containerName'],
      'container-name',
      invalidValue(name, 'must be one of the container or initContainer names in the pod template'),
    );
  }
  const written = Array.isArray(onExitCodes.values) ? (onExitCodes.values as unknown[]) : [];
  const values = written.filter((value): value is number => typeof value === 'number');
  if (values.length !== written.length) return;
  const shown = `[]int32{${values.join(', ')}}`;
  if (values.length === 0) {
    add(['values'], 'min-items', `Invalid value: ${shown}: at least one value is required`);
  } else if (values.length > MAX_EXIT_CODES) {
    add(['values'], 'max-items', tooManyValue(values.length, MAX_EXIT_CODES));
  }
  let ordered = true;
  const seen = new Set<number>();
  for (const [j, value] of values.entries()) {
    if (onExitCodes.operator === 'In' && value === 0) {
      add(['values', j], 'exit-code', invalidValue(0, 'must not be 0 for the In operator'));
    }
    if (seen.has(value)) add(['values', j], 'duplicate', duplicateValue(value));
    seen.add(value);
    if (j > 0 && (values[j - 1] as number) > value) ordered = false;
  }
  if (!ordered) add(['values'], 'ordered', `Invalid value: ${shown}: must be ordered`);
}
