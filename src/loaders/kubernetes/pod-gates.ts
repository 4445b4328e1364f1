/**
 * What the API server checks of a pod's readiness and scheduling gates in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateReadinessGates`, `validateSchedulingGates`): a readiness
 * gate's `conditionType` and a scheduling gate's `name` are qualified names (as a label key is),
 * and no scheduling gate is named twice. Go reports a scheduling gate's problems at the gate,
 * not at its `name`; so does cosi. Each problem in the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue } from './go-field-error.js';
import { qualifiedNameProblems } from './label-syntax.js';
import { podSpecOf } from './pod-spec-paths.js';

/** The readiness and scheduling gate problems of a built-in document of `group`/`kind`. */
export function podGateProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  if (Array.isArray(spec.readinessGates)) {
    spec.readinessGates.forEach((gate: unknown, i) => {
      if (!isPlainObject(gate) || typeof gate.conditionType !== 'string') return;
      const condition = gate.conditionType;
      for (const message of qualifiedNameProblems(condition)) {
        add(
          ['readinessGates', i, 'conditionType'],
          'qualified-name',
          invalidValue(condition, message),
        );
      }
    });
  }
  if (Array.isArray(spec.schedulingGates)) {
    spec.schedulingGates.forEach((gate: unknown, i) => {
      if (!isPlainObject(gate) || typeof gate.name !== 'string') return;
      const name = gate.name;
      for (const message of qualifiedNameProblems(name)) {
        add(['schedulingGates', i], 'qualified-name', invalidValue(name, message));
      }
    });
  }
  return problems;
}
