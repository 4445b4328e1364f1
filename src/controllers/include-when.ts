/** A resource's `includeWhen`: whether an RGD's render produces it at all. */

import { evaluateConditions, type GraphExpression } from './template-rendering.js';

/**
 * A resource's `includeWhen`, as kro's `Node.IsIgnored` (pkg/runtime/node.go) decides it: a
 * condition that reads another resource waits while that one's data is not there, but one that
 * reads only the instance (`${schema.spec.ingress.enabled}`, the field not set and without a
 * default) is an evaluation error, as kro's docs warn: "give it a default or guard the expression
 * so a missing field does not raise an evaluation error".
 */
export function evaluateIncludeWhen(
  conditions: readonly GraphExpression[],
  scope: Readonly<Record<string, unknown>>,
): ReturnType<typeof evaluateConditions> {
  for (const condition of conditions) {
    const outcome = evaluateConditions([condition], scope);
    if (outcome.state === 'done' && outcome.value) continue;
    if (outcome.state === 'waiting' && condition.references.every((r) => r === 'schema')) {
      const evaluated = condition.evaluate(scope);
      const missing = 'missing' in evaluated ? evaluated.missing : outcome.reason;
      return {
        state: 'error',
        message: `includeWhen \${${condition.source}} at ${condition.location}: ${missing} (give the field a default, or guard the expression: has(...), ?.orValue(...))`,
      };
    }
    return outcome;
  }
  return { state: 'done', value: true };
}
