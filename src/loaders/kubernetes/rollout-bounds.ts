/**
 * What the API server checks in Go of how workloads roll out and scale, which the OpenAPI does
 * not: a Deployment's strategy (`ValidateDeploymentStrategy`: no `rollingUpdate` beside
 * `type: Recreate`; `maxSurge` and `maxUnavailable` not both 0) and a HorizontalPodAutoscaler's
 * bounds (`ValidateHorizontalPodAutoscalerSpec`: `minReplicas` at least 1, `maxReplicas` at
 * least 1 and at least `minReplicas`). Each problem at its field, in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, invalidValue } from './go-field-error.js';

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
  if (group === 'apps' && kind === 'Deployment') strategyProblems(spec.strategy, add);
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
