/**
 * What the API server checks in Go of how workloads roll out and scale, which the OpenAPI does
 * not: counts that may not be negative (`replicas`, `minReadySeconds`, `revisionHistoryLimit`, a
 * StatefulSet's `partition`: `ValidateNonnegativeField`); a Deployment's `progressDeadlineSeconds`
 * past its `minReadySeconds`; a Deployment's strategy (`ValidateDeploymentStrategy`: no
 * `rollingUpdate` beside `type: Recreate`; `maxSurge` and `maxUnavailable` counts or percentages,
 * `maxUnavailable` at most 100%, not both 0) and a DaemonSet's (`ValidateRollingUpdateDaemonSet`:
 * both at most 100%, exactly one of them non-zero once defaulted), a StatefulSet's (a
 * `rollingUpdate` only with `type: RollingUpdate`, the default); and a
 * HorizontalPodAutoscaler's bounds (`ValidateHorizontalPodAutoscalerSpec`: `minReplicas` at least
 * 1, `maxReplicas` at least 1 and at least `minReplicas`). Each problem at its field, in the API
 * server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  forbiddenValue,
  invalidStructValue,
  invalidValue,
  requiredValue,
} from './go-field-error.js';
import { regexError } from './label-syntax.js';

const NEGATIVE = 'must be greater than or equal to 0';
/** apps/v1's `progressDeadlineSeconds` when left out. */
const DEFAULT_PROGRESS_DEADLINE = 600;
const PERCENT = /^[0-9]+%$/;
const PERCENT_MESSAGE = regexError(
  "a valid percent string must be a numeric string followed by an ending '%'",
  '[0-9]+%',
  '1%',
  '93%',
);

/** The counts of each workload kind that may not be negative, by `group/kind`. */
const NONNEGATIVE: Readonly<Record<string, readonly string[]>> = {
  'apps/Deployment': [
    'replicas',
    'minReadySeconds',
    'revisionHistoryLimit',
    'progressDeadlineSeconds',
  ],
  'apps/ReplicaSet': ['replicas', 'minReadySeconds'],
  // ValidateStatefulSetSpec leaves its revisionHistoryLimit alone.
  'apps/StatefulSet': ['replicas', 'minReadySeconds'],
  'apps/DaemonSet': ['minReadySeconds', 'revisionHistoryLimit'],
  '/ReplicationController': ['replicas', 'minReadySeconds'],
};

/** The rollout and scaling problems of a built-in document of `group`/`kind`. */
export function rolloutBoundsProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  const add = (path: string[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer(['spec', ...path]), part: 'value', keyword, message });
  };
  for (const field of NONNEGATIVE[`${group}/${kind}`] ?? []) {
    const value = spec[field];
    if (typeof value === 'number' && value < 0) {
      add([field], 'minimum', invalidValue(value, NEGATIVE));
    }
  }
  if (group === 'apps' && kind === 'Deployment') {
    const { progressDeadlineSeconds, minReadySeconds } = spec;
    const ready = typeof minReadySeconds === 'number' ? minReadySeconds : 0;
    // Left out, apps/v1 defaults it to 600 s, which a minReadySeconds of 600 or more reaches.
    const deadline =
      progressDeadlineSeconds === undefined || progressDeadlineSeconds === null
        ? DEFAULT_PROGRESS_DEADLINE
        : progressDeadlineSeconds;
    if (typeof deadline === 'number' && deadline <= ready) {
      add(
        ['progressDeadlineSeconds'],
        'progress-deadline',
        invalidValue(
          deadline,
          deadline === progressDeadlineSeconds
            ? 'must be greater than minReadySeconds'
            : 'must be greater than minReadySeconds (left out, progressDeadlineSeconds is 600)',
        ),
      );
    }
    strategyProblems(spec.strategy, add);
  }
  if (group === 'apps' && kind === 'DaemonSet') daemonSetStrategyProblems(spec.updateStrategy, add);
  if (group === 'apps' && kind === 'StatefulSet') {
    const strategy = spec.updateStrategy;
    const rollingUpdate = isPlainObject(strategy) ? strategy.rollingUpdate : undefined;
    const partition = isPlainObject(rollingUpdate) ? rollingUpdate.partition : undefined;
    if (isPlainObject(strategy) && strategy.type === 'OnDelete') {
      // ValidateStatefulSetSpec: a rollingUpdate (even `{}`) only beside its own type.
      if (rollingUpdate !== undefined && rollingUpdate !== null) {
        add(
          ['updateStrategy', 'rollingUpdate'],
          'strategy',
          invalidStructValue(rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"),
        );
      }
    } else if (typeof partition === 'number' && partition < 0) {
      add(
        ['updateStrategy', 'rollingUpdate', 'partition'],
        'minimum',
        invalidValue(partition, NEGATIVE),
      );
    }
  }
  if (group === 'autoscaling' && kind === 'HorizontalPodAutoscaler') {
    const { minReplicas, maxReplicas } = spec;
    if (typeof minReplicas === 'number' && minReplicas < 1) {
      add(
        ['minReplicas'],
        'minimum',
        invalidValue(minReplicas, 'must be greater than or equal to 1'),
      );
    }
    if (typeof maxReplicas === 'number' && maxReplicas < 1) {
      add(['maxReplicas'], 'minimum', invalidValue(maxReplicas, 'must be greater than 0'));
    }
    if (
      typeof minReplicas === 'number' &&
      typeof maxReplicas === 'number' &&
      maxReplicas < minReplicas
    ) {
      add(
        ['maxReplicas'],
        'minimum',
        invalidValue(maxReplicas, 'must be greater than or equal to `minReplicas`'),
      );
    }
  }
  return problems;
}

function strategyProblems(
  strategy: unknown,
  add: (path: string[], keyword: string, message: string) => void,
): void {
  if (!isPlainObject(strategy)) return;
  const rollingUpdate = strategy.rollingUpdate;
  if (strategy.type === 'Recreate') {
    if (rollingUpdate !== undefined && rollingUpdate !== null) {
      add(
        ['strategy', 'rollingUpdate'],
        'forbidden',
        forbiddenValue("may not be specified when strategy `type` is 'Recreate'"),
      );
    }
    return;
  }
  if (!isPlainObject(rollingUpdate)) return;
  // Left out, each is defaulted to 25%: only both written as zero stop a rollout.
  const { maxSurge, maxUnavailable } = rollingUpdate;
  intOrPercentProblems(maxUnavailable, ['strategy', 'rollingUpdate', 'maxUnavailable'], add, true);
  intOrPercentProblems(maxSurge, ['strategy', 'rollingUpdate', 'maxSurge'], add, false);
  if (isZero(maxSurge) && isZero(maxUnavailable)) {
    add(
      ['strategy', 'rollingUpdate', 'maxUnavailable'],
      'rolling-update',
      invalidValue(maxUnavailable, 'may not be 0 when `maxSurge` is 0'),
    );
  }
}

/** An int-or-percent that is zero: `0` or `"0%"` (or `"0"`). */
function isZero(value: unknown): boolean {
  return value === 0 || value === '0%' || value === '0';
}

/**
 * A DaemonSet's rolling update, defaulted as the API server defaults it (`maxUnavailable` 1,
 * `maxSurge` 0): each a count or a percentage of at most 100%, and exactly one non-zero.
 */
function daemonSetStrategyProblems(
  strategy: unknown,
  add: (path: string[], keyword: string, message: string) => void,
): void {
  if (!isPlainObject(strategy) || strategy.type === 'OnDelete') return;
  const rollingUpdate = strategy.rollingUpdate;
  if (!isPlainObject(rollingUpdate)) return;
  const maxUnavailable = rollingUpdate.maxUnavailable ?? 1;
  const maxSurge = rollingUpdate.maxSurge ?? 0;
  const at = ['updateStrategy', 'rollingUpdate'];
  intOrPercentProblems(maxUnavailable, [...at, 'maxUnavailable'], add, true);
  intOrPercentProblems(maxSurge, [...at, 'maxSurge'], add, true);
  if (!isCountOrPercent(maxUnavailable) || !isCountOrPercent(maxSurge)) return;
  const hasUnavailable = !isZero(maxUnavailable);
  const hasSurge = !isZero(maxSurge);
  if (hasUnavailable && hasSurge) {
    add(
      [...at, 'maxSurge'],
      'rolling-update',
      invalidValue(maxSurge, 'may not be set when maxUnavailable is non-zero'),
    );
  } else if (!hasUnavailable && !hasSurge) {
    add(
      [...at, 'maxUnavailable'],
      'rolling-update',
      requiredValue('cannot be 0 when maxSurge is 0'),
    );
  }
}

/** Whether an int-or-percent is a count (not negative) or a percentage. */
function isCountOrPercent(value: unknown): boolean {
  return (
    (typeof value === 'number' && value >= 0) || (typeof value === 'string' && PERCENT.test(value))
  );
}

/**
 * `ValidatePositiveIntOrPercent` (a percentage, or a count not negative) and, when `capped`,
 * `IsNotMoreThan100Percent`. (A PodDisruptionBudget's bounds are checked alike.)
 */
export function intOrPercentProblems(
  value: unknown,
  path: string[],
  add: (path: string[], keyword: string, message: string) => void,
  capped: boolean,
): void {
  if (typeof value === 'string') {
    if (!PERCENT.test(value)) add(path, 'percent', invalidValue(value, PERCENT_MESSAGE));
    else if (capped && Number(value.slice(0, -1)) > 100) {
      add(path, 'percent', invalidValue(value, 'must not be greater than 100%'));
    }
  } else if (typeof value === 'number' && value < 0) {
    add(path, 'minimum', invalidValue(value, NEGATIVE));
  }
}
