/**
 * What the API server checks in Go of Jobs and CronJobs, which the OpenAPI does not
 * (k8s.io/kubernetes `pkg/apis/batch/validation`): a Job's counts and limits not negative, the
 * fields of indexed completion only with it (`validateJobSpec`), an indexed Job's last pod
 * hostname a DNS label (`ValidateJob`), a name that fits the `job-name` label the API server
 * gives its pods (at most 63 characters); a CronJob's `schedule` a cron expression without a time
 * zone in it, its `timeZone` a zone of the IANA database, its deadlines and history limits not
 * negative (`validateCronJobSpec`) and its name at most 52 characters, as the Jobs it creates
 * append 11 (`ValidateCronJobCreate`). The selector and the pod template's restart policy are
 * `template-selector.ts`' and `workload-restart-policy.ts`'. Each problem at its field, in the API
 * server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { cronScheduleError } from './cron-schedule.js';
import { invalidStructValue, invalidValue, requiredValue } from './go-field-error.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import { DNS1123_LABEL } from './label-syntax.js';
import { timeZoneError } from './time-zone.js';

type Add = (path: readonly string[], keyword: string, message: string) => void;

const NOT_NEGATIVE = 'must be greater than or equal to 0';
const INDEXED = 'Indexed';
const REQUIRES_INDEXED = 'requires indexed completion mode';
/** The Job fields `ValidateNonnegativeField` checks, in the order it checks them. */
const JOB_COUNTS = [
  'parallelism',
  'completions',
  'activeDeadlineSeconds',
  'backoffLimit',
  'ttlSecondsAfterFinished',
  'backoffLimitPerIndex',
  'maxFailedIndexes',
] as const;
const MAX_INDEXED_PARALLELISM = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const HIGH_COMPLETIONS_LIMIT = 10_000;
/** A CronJob's name and the 11 characters (`-$TIMESTAMP`) of its Jobs' stay a DNS-1035 label. */
const MAX_CRON_JOB_NAME = 63 - 11;
/** The longest label value (`IsValidLabelValue`), and when Go began to count it in bytes. */
const MAX_LABEL_VALUE = 63;
const LABEL_LENGTH_IN_BYTES_SINCE: KubernetesRelease = '1.35';
/** `validTimeZoneCharacters`: a name component of the IANA database. */
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;
/** The first releases that take these Job fields by default (beta); before, they are dropped. */
const BACKOFF_LIMIT_PER_INDEX_SINCE: KubernetesRelease = '1.29';
const SUCCESS_POLICY_SINCE: KubernetesRelease = '1.31';

/** The problems of a built-in Job or CronJob document of `release`. */
export function batchJobProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  if (group !== 'batch' || (kind !== 'Job' && kind !== 'CronJob')) return [];
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  const name = isPlainObject(document.metadata) ? document.metadata.name : undefined;
  if (kind === 'Job') {
    jobNameLabelProblems(spec, name, release, add);
    jobSpecProblems(spec, ['spec'], release, add);
    indexedHostnameProblems(spec, name, add);
    return problems;
  }
  cronJobSpecProblems(spec, add);
  const jobTemplate = spec.jobTemplate;
  if (isPlainObject(jobTemplate) && isPlainObject(jobTemplate.spec)) {
    jobSpecProblems(jobTemplate.spec, ['spec', 'jobTemplate', 'spec'], release, add);
  }
  if (typeof name === 'string' && name.length > MAX_CRON_JOB_NAME) {
    add(
      ['metadata', 'name'],
      'maxLength',
      invalidValue(name, `must be no more than ${MAX_CRON_JOB_NAME} characters`),
    );
  }
  return problems;
}

/** `validateJobSpec`: counts, and the fields that need indexed completion or go with it. */
function jobSpecProblems(
  spec: Record<string, unknown>,
  at: readonly string[],
  release: KubernetesRelease,
  add: Add,
): void {
  const perIndex = releaseAtLeast(release, BACKOFF_LIMIT_PER_INDEX_SINCE);
  const count = (field: string): number | undefined => {
    if (!perIndex && (field === 'backoffLimitPerIndex' || field === 'maxFailedIndexes')) {
      return undefined;
    }
    const value = spec[field];
    return typeof value === 'number' ? value : undefined;
  };
  for (const field of JOB_COUNTS) {
    const value = count(field);
    if (value !== undefined && value < 0) {
      add([...at, field], 'minimum', invalidValue(value, NOT_NEGATIVE));
    }
  }
  const parallelism = count('parallelism');
  const completions = count('completions');
  const backoffLimitPerIndex = count('backoffLimitPerIndex');
  const maxFailedIndexes = count('maxFailedIndexes');
  if (maxFailedIndexes !== undefined && backoffLimitPerIndex === undefined) {
    add(
      [...at, 'backoffLimitPerIndex'],
      'required',
      requiredValue('when maxFailedIndexes is specified'),
    );
  }
  const indexed = spec.completionMode === INDEXED;
  if (indexed) {
    if (spec.completions === undefined || spec.completions === null) {
      add([...at, 'completions'], 'required', requiredValue(`when completion mode is ${INDEXED}`));
    }
    if (parallelism !== undefined && parallelism > MAX_INDEXED_PARALLELISM) {
      add(
        [...at, 'parallelism'],
        'maximum',
        invalidValue(
          parallelism,
          `must be less than or equal to ${MAX_INDEXED_PARALLELISM} when completion mode is ${INDEXED}`,
        ),
      );
    }
    if (maxFailedIndexes !== undefined) {
      if (completions !== undefined && maxFailedIndexes > completions) {
        add(
          [...at, 'maxFailedIndexes'],
          'maximum',
          invalidValue(maxFailedIndexes, 'must be less than or equal to completions'),
        );
      }
      if (maxFailedIndexes > MAX_FAILED_INDEXES) {
        add(
          [...at, 'maxFailedIndexes'],
          'maximum',
          invalidValue(maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES}`),
        );
      }
    }
    if (
      completions !== undefined &&
      completions > COMPLETIONS_SOFT_LIMIT &&
      backoffLimitPerIndex !== undefined
    ) {
      highCompletionProblems(parallelism, maxFailedIndexes, at, add);
    }
  } else {
    if (backoffLimitPerIndex !== undefined) {
      add(
        [...at, 'backoffLimitPerIndex'],
        'indexed',
        invalidValue(backoffLimitPerIndex, REQUIRES_INDEXED),
      );
    }
    if (maxFailedIndexes !== undefined) {
      add([...at, 'maxFailedIndexes'], 'indexed', invalidValue(maxFailedIndexes, REQUIRES_INDEXED));
    }
    const successPolicy = spec.successPolicy;
    if (
      releaseAtLeast(release, SUCCESS_POLICY_SINCE) &&
      successPolicy !== undefined &&
      successPolicy !== null
    ) {
      add([...at, 'successPolicy'], 'indexed', invalidStructValue(successPolicy, REQUIRES_INDEXED));
    }
  }
}

/** An indexed Job of more than 100,000 completions with a backoff limit per index. */
function highCompletionProblems(
  parallelism: number | undefined,
  maxFailedIndexes: number | undefined,
  at: readonly string[],
  add: Add,
): void {
  const above = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
  if (maxFailedIndexes === undefined) {
    add(
      [...at, 'maxFailedIndexes'],
      'required',
      requiredValue(`must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`),
    );
  }
  if (parallelism !== undefined && parallelism > HIGH_COMPLETIONS_LIMIT) {
    add(
      [...at, 'parallelism'],
      'maximum',
      invalidValue(parallelism, `must be less than or equal to ${HIGH_COMPLETIONS_LIMIT} ${above}`),
    );
  }
  if (maxFailedIndexes !== undefined && maxFailedIndexes > HIGH_COMPLETIONS_LIMIT) {
    add(
      [...at, 'maxFailedIndexes'],
      'maximum',
      invalidValue(
        maxFailedIndexes,
        `must be less than or equal to ${HIGH_COMPLETIONS_LIMIT} ${above}`,
      ),
    );
  }
}

/**
 * A Job whose selector the API server generates gets its name as the value of the pod
 * template's `job-name` and `batch.kubernetes.io/job-name` labels (the strategy's
 * `PrepareForCreate`), which `ValidatePodTemplateSpec` then checks: a name longer than a label
 * value may be is `spec.template.labels: Invalid value: ...: must be no more than 63 characters`
 * (`bytes` from 1.35), reported at the name.
 */
function jobNameLabelProblems(
  spec: Record<string, unknown>,
  name: unknown,
  release: KubernetesRelease,
  add: Add,
): void {
  if (spec.manualSelector === true || typeof name !== 'string') return;
  if (name.length <= MAX_LABEL_VALUE) return;
  const unit = releaseAtLeast(release, LABEL_LENGTH_IN_BYTES_SINCE) ? 'bytes' : 'characters';
  add(
    ['metadata', 'name'],
    'maxLength',
    invalidValue(name, `must be no more than ${MAX_LABEL_VALUE} ${unit}`),
  );
}

/** `ValidateJob`: an indexed Job's pods are named `<job>-<index>`, which must be a DNS label. */
function indexedHostnameProblems(spec: Record<string, unknown>, name: unknown, add: Add): void {
  const completions = spec.completions;
  if (spec.completionMode !== INDEXED || typeof name !== 'string') return;
  if (typeof completions !== 'number' || completions <= 0) return;
  const hostname = `${name}-${completions - 1}`;
  if (hostname.length > 63 || !DNS1123_LABEL.test(hostname)) {
    add(
      ['metadata', 'name'],
      'pod-hostname',
      invalidValue(name, `will not able to create pod with invalid DNS label: ${hostname}`),
    );
  }
}

/** `validateCronJobSpec`: the schedule, the time zone, the deadline and the history limits. */
function cronJobSpecProblems(spec: Record<string, unknown>, add: Add): void {
  const { schedule, timeZone } = spec;
  if (schedule === '') add(['spec', 'schedule'], 'required', requiredValue());
  else if (typeof schedule === 'string') {
    const error = cronScheduleError(schedule);
    if (error !== undefined) add(['spec', 'schedule'], 'cron', invalidValue(schedule, error));
    // Only a CronJob written before 1.27 may keep one, and only without `timeZone`.
    if (schedule.includes('TZ')) {
      add(
        ['spec', 'schedule'],
        'cron',
        invalidValue(schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'),
      );
    }
  }
  if (typeof spec.startingDeadlineSeconds === 'number' && spec.startingDeadlineSeconds < 0) {
    add(
      ['spec', 'startingDeadlineSeconds'],
      'minimum',
      invalidValue(spec.startingDeadlineSeconds, NOT_NEGATIVE),
    );
  }
  if (typeof timeZone === 'string') {
    const error = timeZoneProblem(timeZone);
    if (error !== undefined) add(['spec', 'timeZone'], 'time-zone', invalidValue(timeZone, error));
  }
  for (const field of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    const value = spec[field];
    if (typeof value === 'number' && value < 0) {
      add(['spec', field], 'minimum', invalidValue(value, NOT_NEGATIVE));
    }
  }
}

/** `validateTimeZone`: a name the IANA database's naming rules allow, not `Local`, and known. */
function timeZoneProblem(timeZone: string): string | undefined {
  if (timeZone === '') return 'timeZone must be nil or non-empty string';
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) {
      return `unknown time zone ${timeZone}`;
    }
  }
  if (timeZone.toLowerCase() === 'local') {
    return 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones';
  }
  return timeZoneError(timeZone);
}
