import { isCelError, isCelList } from '@bufbuild/cel';
import { toCelValue } from '../../../src/loaders/cel/cel-value.js';
import { CostBudget } from '../../../src/loaders/cel/cost-budget.js';
import { compileExpression } from '../../../src/loaders/cel/rule-compiler.js';

/**
 * Compiles and evaluates one expression with `self` bound (no schema), as a rule would be.
 * Returns the value (lists as arrays), or `{ error }` for an evaluation error, or
 * `{ exceeded }` when the cost limit stopped it. Throws when the expression does not compile.
 */
export function runExpression(
  source: string,
  self: unknown = null,
  budget = new CostBudget(),
): unknown {
  const compiled = compileExpression(source);
  if ('error' in compiled) throw new Error(compiled.error);
  const outcome = budget.run(() => compiled.program({ self: toCelValue(self, undefined) }));
  if ('exceeded' in outcome) return { exceeded: outcome.exceeded.limit };
  const value = outcome.value;
  if (isCelError(value)) return { error: value.message };
  return isCelList(value) ? [...value] : value;
}
