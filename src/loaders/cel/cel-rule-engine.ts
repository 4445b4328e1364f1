/**
 * What the loaders use of CEL, in one module that `cel-rules.ts` loads on demand: importing it
 * loads `@bufbuild/cel` and the Kubernetes libraries.
 */
import type { CelEnv } from '@bufbuild/cel';
import { celEnvironmentFor } from './cel-environment.js';
import { evaluateRules, type EvaluateRulesOptions, type RuleViolation } from './evaluate-rules.js';
import { compileRulesIn, type CompiledRules } from './rule-compiler.js';
import { parseExpression } from './cel-expression.js';

/** The CEL rules of one CEL environment: compile a schema's rules, evaluate them on a value. */
export interface CelRules {
  /** The environment the rules compile in: that of one Kubernetes version's API server. */
  readonly environment: CelEnv;
  compileRules(schema: object): CompiledRules;
  evaluateRules(
    schema: object,
    value: unknown,
    options?: Omit<EvaluateRulesOptions, 'kubernetesVersion' | 'environment'>,
  ): RuleViolation[];
  /** Why `source` does not parse as an expression of this environment, or undefined. */
  syntaxError(source: string): string | undefined;
}

/** The CEL rule engine: the rules of the API server of a Kubernetes version. */
export interface CelRuleEngine {
  /**
   * The rules in the CEL environment of Kubernetes `kubernetesVersion` (`'1.30'`), the newest
   * stable when omitted.
   */
  rulesFor(kubernetesVersion?: string): CelRules;
}

export const celRuleEngine: CelRuleEngine = {
  rulesFor(kubernetesVersion) {
    const environment = celEnvironmentFor(kubernetesVersion);
    return {
      environment,
      compileRules: (schema) => compileRulesIn(environment, schema),
      evaluateRules: (schema, value, options = {}) =>
        evaluateRules(schema, value, {
          ...options,
          environment,
          ...(kubernetesVersion === undefined ? {} : { kubernetesVersion }),
        }),
      syntaxError: (source) => {
        try {
          parseExpression(source, environment);
          return undefined;
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      },
    };
  },
};
