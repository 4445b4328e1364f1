/**
 * What the loaders use of CEL, in one module that `cel-rules.ts` loads on demand: importing it
 * loads `@bufbuild/cel` and the Kubernetes libraries.
 */
import { evaluateRules } from './evaluate-rules.js';
import { compileRules } from './rule-compiler.js';

/** The CEL rule engine: compile a schema's rules, evaluate them on a value. */
export interface CelRuleEngine {
  readonly compileRules: typeof compileRules;
  readonly evaluateRules: typeof evaluateRules;
}

export const celRuleEngine: CelRuleEngine = { compileRules, evaluateRules };
