/**
 * The restart policies a workload's pod template may have, which the API server checks in its
 * Go validation (no OpenAPI says it): a Deployment, ReplicaSet, StatefulSet, DaemonSet or
 * ReplicationController runs its pods `Always` (`Unsupported value: "OnFailure": supported
 * values: "Always"`; an absent policy defaults to `Always`), a Job (and a CronJob's job) `OnFailure`
 * or `Never` (`Always`, and an absent policy, which defaults to `Always`, is `Required value:
 * valid values: "OnFailure", "Never"`; `OnFailure` beside a `podFailurePolicy` is `Invalid value:
 * "OnFailure": only "Never" is supported when podFailurePolicy is specified`), as k8s.io/kubernetes
 * `pkg/apis/apps/validation`
 * (`ValidatePodTemplateSpecForReplicaSet`, the StatefulSet and DaemonSet specs, core's
 * `ValidatePodTemplateSpecForRC`) and `pkg/apis/batch/validation` (`validateJobSpec`) word it.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';

interface TemplateRule {
  /** Where the pod template's spec is in the document. */
  readonly spec: readonly string[];
  readonly allowed: readonly string[];
  /** Whether an absent policy (which defaults to `Always`) is refused. */
  readonly required: boolean;
}

const ALWAYS: readonly string[] = ['Always'];
const JOB: readonly string[] = ['OnFailure', 'Never'];

const RULES: Readonly<Record<string, TemplateRule>> = {
  'apps/Deployment': { spec: ['spec', 'template', 'spec'], allowed: ALWAYS, required: false },
  'apps/ReplicaSet': { spec: ['spec', 'template', 'spec'], allowed: ALWAYS, required: false },
  'apps/StatefulSet': { spec: ['spec', 'template', 'spec'], allowed: ALWAYS, required: false },
  'apps/DaemonSet': { spec: ['spec', 'template', 'spec'], allowed: ALWAYS, required: false },
  '/ReplicationController': {
    spec: ['spec', 'template', 'spec'],
    allowed: ALWAYS,
    required: false,
  },
  'batch/Job': { spec: ['spec', 'template', 'spec'], allowed: JOB, required: true },
  'batch/CronJob': {
    spec: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
    allowed: JOB,
    required: true,
  },
};

const quoted = (values: readonly string[]): string =>
  values.map((v) => JSON.stringify(v)).join(', ');

/**
 * The restart-policy problem of a built-in document of `group`/`kind`, if it has one (none for a
 * kind without a pod template, or a template the schema check reports as missing).
 */
export function restartPolicyProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const rule = RULES[`${group}/${kind}`];
  if (rule === undefined) return [];
  let spec: unknown = document;
  for (const key of rule.spec) spec = isPlainObject(spec) ? spec[key] : undefined;
  if (!isPlainObject(spec)) return [];
  const policy = spec.restartPolicy;
  // A value of another type is the schema's to report.
  if (policy !== undefined && policy !== null && typeof policy !== 'string') return [];
  const value = typeof policy === 'string' && policy !== '' ? policy : undefined;
  // An absent field is reported at its parent, as every finding at a missing pointer is.
  const path = jsonPointer([...rule.spec, 'restartPolicy']);
  if (value !== undefined && rule.allowed.includes(value)) {
    return value === 'OnFailure' && hasPodFailurePolicy(document, rule)
      ? [
          {
            path,
            part: 'value',
            keyword: 'enum',
            message: `Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified`,
          },
        ]
      : [];
  }
  if (rule.required && (value === undefined || value === 'Always')) {
    return [
      {
        path,
        part: 'value',
        keyword: 'required',
        message: `Required value: valid values: ${quoted(rule.allowed)}`,
      },
    ];
  }
  if (value === undefined) return [];
  return [
    {
      path,
      part: 'value',
      keyword: 'enum',
      message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${quoted(rule.allowed)}`,
    },
  ];
}

/** Whether a Job's spec (the pod template's parent) has a `podFailurePolicy`. */
function hasPodFailurePolicy(document: Record<string, unknown>, rule: TemplateRule): boolean {
  let jobSpec: unknown = document;
  for (const key of rule.spec.slice(0, -2))
    jobSpec = isPlainObject(jobSpec) ? jobSpec[key] : undefined;
  return isPlainObject(jobSpec) && isPlainObject(jobSpec.podFailurePolicy);
}
