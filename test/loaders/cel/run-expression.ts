import { isCelError, isCelList } from '@bufbuild/cel';
import { celEnvironmentFor } from '../../../src/loaders/cel/cel-environment.js';
import { OpaqueValue } from '../../../src/loaders/cel/opaque-value.js';
import { toCelValue } from '../../../src/loaders/cel/cel-value.js';
import { CostBudget } from '../../../src/loaders/cel/cost-budget.js';
import { goEvaluationError } from '../../../src/loaders/cel/evaluation-error.js';
import { compileExpression } from '../../../src/loaders/cel/compile-expression.js';

/**
 * Compiles and evaluates one expression with `self` bound (no schema), as a rule would be.
 * Returns the value (lists as arrays), or `{ error }` for an evaluation error (in cel-go's words), or
 * `{ exceeded }` when the cost limit stopped it. `kubernetesVersion` picks the environment. Throws when the expression does not compile.
 */
export function runExpression(
  source: string,
  self: unknown = null,
  budget = new CostBudget(),
  kubernetesVersion?: string,
): unknown {
  const compiled = compileExpression(source, undefined, celEnvironmentFor(kubernetesVersion));
  if ('error' in compiled) throw new Error(compiled.error);
  const outcome = budget.run(() => compiled.program({ self: toCelValue(self, undefined) }));
  if ('exceeded' in outcome) return { exceeded: outcome.exceeded.limit };
  const value = outcome.value;
  if (isCelError(value)) return { error: goEvaluationError(value.message) };
  // An IP or CIDR as `{ 'net.IP': '10.0.0.1' }`.
  if (value instanceof OpaqueValue) {
    const text = value.toCelString();
    if (text !== undefined) return { [String(value.keys().next().value)]: text };
  }
  return isCelList(value) ? [...value] : value;
}
