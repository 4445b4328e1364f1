/**
 * A workload's selector against its pod template's labels, as the API server checks it in Go
 * (k8s.io/kubernetes `pkg/apis/apps/validation` `ValidatePodTemplateSpecForReplicaSet`, core's
 * `ValidatePodTemplateSpecForRC`, `pkg/apis/batch/validation` `ValidateJobSpec` and
 * `validateGeneratedSelector`, `ValidateJobTemplateSpec`): a Deployment, ReplicaSet,
 * StatefulSet, DaemonSet or ReplicationController whose selector does not select its own pods is
 * `spec.template.metadata.labels: Invalid value: map[string]string{...}: \`selector\` does not
 * match template \`labels\``; so is a Job with `manualSelector: true`. A Job without it gets a
 * generated selector: one written anyway must select the generated labels (`job-name`), or it
 * is `\`selector\` not auto-generated`; a CronJob's job template may have neither. A selector that
 * selects nothing in particular (`{}`) is `empty selector is invalid for deployment` (the API
 * server's words for a ReplicaSet too), `... for statefulset`, `... for daemonset`; a
 * ReplicationController needs a selector or template labels to default it from (`Required
 * value`). A selector the OpenAPI requires and the document lacks is the schema's to report,
 * once. The selector itself is checked as `ValidateLabelSelector` checks it (operators, values,
 * label keys and values); a workload's that does not convert is also `invalid label selector`
 * and is not compared with the template. (A selector prints as JSON, as the API server prints it
 * since 1.34.)
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { labelSelectorProblems } from './label-syntax.js';
import {
  invalidStructValue,
  invalidValue,
  requiredValue,
  unsupportedValue,
} from './go-field-error.js';

const DOES_NOT_MATCH = '`selector` does not match template `labels`';
/** The kinds with a `LabelSelector`, and the word of their empty-selector message. */
const LABEL_SELECTOR_KINDS: ReadonlyMap<string, string> = new Map([
  ['apps/Deployment', 'deployment'],
  ['apps/ReplicaSet', 'deployment'],
  ['apps/StatefulSet', 'statefulset'],
  ['apps/DaemonSet', 'daemonset'],
]);
/** The labels the API server gives a Job's pods whose selector it generates; the uid is unknown. */
const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'];
const JOB_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'];

/** The selector problems of a built-in document of `group`/`kind`. */
export function templateSelectorProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problem = (path: string[], keyword: string, message: string): SchemaProblem => ({
    path: jsonPointer(path),
    part: 'value',
    keyword,
    message,
  });
  const word = LABEL_SELECTOR_KINDS.get(`${group}/${kind}`);
  if (word !== undefined && isEmptySelector(spec.selector)) {
    // ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec,
    // ValidateDaemonSetSpec: an empty selector, whatever the template.
    return [
      problem(
        ['spec', 'selector'],
        'selector',
        invalidStructValue(
          withoutEmptyParts(spec.selector),
          `empty selector is invalid for ${word}`,
        ),
      ),
    ];
  }
  if (word !== undefined || (group === 'batch' && kind === 'Job')) {
    // ValidateLabelSelector, strictly (no invalid label value). A workload's selector must then
    // convert (LabelSelectorAsSelector), or it is invalid and not compared with the template;
    // a Job's is compared only when it converts.
    const invalid: SchemaProblem[] = [];
    labelSelectorProblems(spec.selector, (path, keyword, message) =>
      invalid.push(problem(['spec', 'selector', ...path.map(String)], keyword, message)),
    );
    if (invalid.length > 0) {
      if (word !== undefined && isPlainObject(spec.selector)) {
        invalid.push(
          problem(
            ['spec', 'selector'],
            'selector',
            invalidStructValue(withoutEmptyParts(spec.selector), 'invalid label selector'),
          ),
        );
      }
      return invalid;
    }
  }
  // Without a template the API server says only that one is required (as the schema does here).
  if (!isPlainObject(spec.template) && kind !== 'CronJob') return [];
  const labels = templateLabels(spec.template);
  if (word !== undefined) {
    const matches = selects(spec.selector, labels);
    return matches === false
      ? [problem(['spec', 'template', 'metadata', 'labels'], 'selector', mismatch(labels))]
      : [];
  }
  if (group === '' && kind === 'ReplicationController') {
    // An absent or empty selector is defaulted to the template's labels (SetDefaults_
    // ReplicationController); with none to default from, ValidateNonEmptySelector requires one.
    if (!isPlainObject(spec.selector) || Object.keys(spec.selector).length === 0) {
      const written = isPlainObject(spec.template) ? spec.template.metadata : undefined;
      const hasLabels =
        isPlainObject(written) &&
        isPlainObject(written.labels) &&
        Object.keys(written.labels).length > 0;
      return hasLabels ? [] : [problem(['spec', 'selector'], 'required', requiredValue())];
    }
    return selects({ matchLabels: spec.selector }, labels) === false
      ? [problem(['spec', 'template', 'metadata', 'labels'], 'selector', mismatch(labels))]
      : [];
  }
  if (group === 'batch' && kind === 'Job') return jobProblems(document, spec, labels, problem);
  if (group === 'batch' && kind === 'CronJob') {
    const jobTemplate = spec.jobTemplate;
    const jobSpec = isPlainObject(jobTemplate) ? jobTemplate.spec : undefined;
    if (!isPlainObject(jobSpec)) return [];
    const at = ['spec', 'jobTemplate', 'spec'];
    const problems: SchemaProblem[] = [];
    if (jobSpec.selector !== undefined && jobSpec.selector !== null) {
      problems.push(
        problem(
          [...at, 'selector'],
          'selector',
          invalidValue(jobSpec.selector, '`selector` will be auto-generated'),
        ),
      );
    }
    if (jobSpec.manualSelector === true) {
      problems.push(
        problem([...at, 'manualSelector'], 'selector', unsupportedValue(true, ['nil', 'false'])),
      );
    }
    return problems;
  }
  return [];
}

function jobProblems(
  document: Record<string, unknown>,
  spec: Record<string, unknown>,
  labels: Record<string, string> | undefined,
  problem: (path: string[], keyword: string, message: string) => SchemaProblem,
): SchemaProblem[] {
  const selector = spec.selector;
  const present = selector !== undefined && selector !== null;
  if (spec.manualSelector === true) {
    if (!present) return [problem(['spec', 'selector'], 'required', requiredValue())];
    return selects(selector, labels) === false
      ? [problem(['spec', 'template', 'metadata', 'labels'], 'selector', mismatch(labels))]
      : [];
  }
  if (!present || !isPlainObject(selector)) return [];
  // The generated labels: the Job's name under both keys (and its uid, which no file knows: a
  // selector on the uid is left alone).
  if (mentions(selector, JOB_UID_LABELS)) return [];
  const metadata = isPlainObject(document.metadata) ? document.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  const generated = Object.fromEntries(JOB_NAME_LABELS.map((key) => [key, name]));
  return selects(selector, generated) === false
    ? [
        problem(
          ['spec', 'selector'],
          'selector',
          invalidValue(selector, '`selector` not auto-generated'),
        ),
      ]
    : [];
}

function mismatch(labels: Record<string, string> | undefined): string {
  return labels === undefined
    ? `Invalid value: map[string]string(nil): ${DOES_NOT_MATCH}`
    : invalidValue(labels, DOES_NOT_MATCH);
}

/** Whether a selector is written and selects on nothing (`{}`, `{ matchLabels: {} }`). */
function isEmptySelector(selector: unknown): selector is Record<string, unknown> {
  if (!isPlainObject(selector)) return false;
  const { matchLabels, matchExpressions } = selector;
  const labels = matchLabels === undefined || matchLabels === null ? {} : matchLabels;
  const expressions =
    matchExpressions === undefined || matchExpressions === null ? [] : matchExpressions;
  return (
    isPlainObject(labels) &&
    Object.keys(labels).length === 0 &&
    Array.isArray(expressions) &&
    expressions.length === 0
  );
}

/** A selector as Go's JSON prints it: empty parts are left out (`omitempty`). */
function withoutEmptyParts(selector: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(selector)) {
    const empty =
      value === null ||
      (Array.isArray(value) && value.length === 0) ||
      (isPlainObject(value) && Object.keys(value).length === 0);
    if (!empty) out[key] = value;
  }
  return out;
}

/** A pod template's labels, when they are all strings (else the schema reports them). */
function templateLabels(template: unknown): Record<string, string> | undefined {
  const metadata = isPlainObject(template) ? template.metadata : undefined;
  const labels = isPlainObject(metadata) ? metadata.labels : undefined;
  if (!isPlainObject(labels)) return undefined;
  return Object.values(labels).every((v) => typeof v === 'string')
    ? (labels as Record<string, string>)
    : undefined;
}

/** Whether a selector names any of `keys`. */
function mentions(selector: Record<string, unknown>, keys: readonly string[]): boolean {
  const matchLabels = isPlainObject(selector.matchLabels) ? selector.matchLabels : {};
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  return keys.some(
    (key) =>
      key in matchLabels || expressions.some((e: unknown) => isPlainObject(e) && e.key === key),
  );
}

/**
 * Whether a `LabelSelector` selects `labels` (apimachinery's `LabelSelectorAsSelector` and
 * `Matches`); undefined when it cannot tell (a malformed selector, reported by the schema, or an
 * empty one, which the API server does not compare).
 */
function selects(
  selector: unknown,
  labels: Record<string, string> | undefined,
): boolean | undefined {
  if (!isPlainObject(selector)) return undefined;
  const set = labels ?? {};
  const matchLabels = selector.matchLabels ?? {};
  const expressions = selector.matchExpressions ?? [];
  if (!isPlainObject(matchLabels) || !Array.isArray(expressions)) return undefined;
  if (Object.keys(matchLabels).length === 0 && expressions.length === 0) return undefined;
  for (const [key, value] of Object.entries(matchLabels)) {
    if (typeof value !== 'string') return undefined;
    if (set[key] !== value) return false;
  }
  for (const expression of expressions) {
    if (!isPlainObject(expression) || typeof expression.key !== 'string') return undefined;
    const values = Array.isArray(expression.values) ? expression.values : [];
    const has = Object.hasOwn(set, expression.key);
    const value = set[expression.key];
    switch (expression.operator) {
      case 'In':
        if (!has || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(value)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return undefined;
    }
  }
  return true;
}
