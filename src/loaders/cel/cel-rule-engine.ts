/**
 * What the loaders use of CEL, in one module that `cel-rules.ts` loads on demand: importing it
 * loads `@bufbuild/cel` and the Kubernetes libraries.
 */
import type { CelEnv } from '@bufbuild/cel';
import { celEnvironmentFor } from './cel-environment.js';
import { evaluateRules, type EvaluateRulesOptions, type RuleViolation } from './evaluate-rules.js';
import { compileRulesIn } from './rule-compiler.js';
import { compileExpression } from './compile-expression.js';
import type { CompiledRules, RuleProblem } from './compiled-rule.js';
import { newRuleProblems, type PreexistingExpressions } from './new-rules.js';
import { parseExpression } from './cel-expression.js';
import type { ExprNode } from './optional-syntax.js';

/** The CEL rules of one CEL environment: compile a schema's rules, evaluate them on a value. */
export interface CelRules {
  /** The environment the rules compile in: that of one Kubernetes version's API server. */
  readonly environment: CelEnv;
  compileRules(schema: object): CompiledRules;
  /**
   * The problems of a CRD's rules that compile in {@link environment} but not as new rules of a
   * created or changed CRD, which the API server compiles with the libraries of the release
   * before its own (`new-rules.ts`); `preexisting` holds the stored CRD's expressions.
   */
  newRuleProblems(schema: object, preexisting?: PreexistingExpressions): readonly RuleProblem[];
  evaluateRules(
    schema: object,
    value: unknown,
    options?: Omit<EvaluateRulesOptions, 'kubernetesVersion' | 'environment'>,
  ): RuleViolation[];
  /** Why `source` does not parse as an expression of this environment, or undefined. */
  syntaxError(source: string): string | undefined;
  /**
   * Why an admission expression does not compile where only the variables `declared` are, as the
   * API server says it: it does not parse (`compilation failed: ` and what {@link syntaxError}
   * says), it names a variable nothing declares (`compilation failed: ERROR: <input>:1:1:
   * undeclared reference to 'objec' (in container '')`), or, when its type must be one of
   * `result` (cel-go's names: `bool`, `string`, `null_type`), it is only a field of a variable of
   * no known type (`object.spec.enabled`: `must evaluate to bool`). Undefined when none.
   */
  compileError(
    source: string,
    declared: ReadonlySet<string>,
    result?: readonly string[],
  ): string | undefined;
}

/** The CEL rule engine: the rules of the API server of a Kubernetes version. */
export interface CelRuleEngine {
  /**
   * The rules in the CEL environment of Kubernetes `kubernetesVersion` (`'1.30'`), the newest
   * stable when omitted.
   */
  rulesFor(kubernetesVersion?: string): CelRules;
}

const UNDECLARED = 'undeclared reference to';

/** The variables of an admission expression whose type is `dyn`: what the policy matches. */
const UNTYPED_VARIABLES = new Set(['object', 'oldObject', 'params']);

/**
 * Whether an expression is only a field or an index of an untyped variable (`object.spec.enabled`,
 * `params.data['x']`): its type is `dyn`, which cel-go's checker never takes for `bool` or `string`
 * (the API server compares the output type with the one the field needs).
 */
function isUntypedField(expr: ExprNode): boolean {
  let node = expr;
  let selected = false;
  for (;;) {
    const { case: kind, value } = node.exprKind;
    const v = value as Record<string, unknown>;
    if (kind === 'selectExpr' && v.testOnly !== true) {
      node = v.operand as ExprNode;
    } else if (kind === 'callExpr' && v.function === '_[_]' && v.target === undefined) {
      node = (v.args as ExprNode[])[0] as ExprNode;
    } else {
      return selected && kind === 'identExpr' && UNTYPED_VARIABLES.has(v.name as string);
    }
    selected = true;
  }
}

/**
 * Where a variable is first named in `source` (line and column from 1, as cel-go says them): its
 * first appearance as a name of its own, not a field or method (`.name`), a function (`name(`)
 * nor inside a string literal; `undefined` when there is none.
 */
function variablePosition(source: string, name: string): { line: number; col: number } | undefined {
  // String literals blanked out, at their length: a name inside one is no reference.
  const code = source.replace(
    /[rR]?(?:'''[\s\S]*?'''|"""[\s\S]*?"""|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")/g,
    (literal) => literal.replace(/[^\n]/g, ' '),
  );
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const offset = new RegExp(`(?<![\\w.])${escaped}(?![\\w(])`).exec(code)?.index;
  if (offset === undefined) return undefined;
  const before = source.slice(0, offset).split('\n');
  return { line: before.length, col: (before.at(-1)?.length ?? 0) + 1 };
}

function syntaxErrorIn(environment: CelEnv, source: string): string | undefined {
  try {
    parseExpression(source, environment);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const celRuleEngine: CelRuleEngine = {
  rulesFor(kubernetesVersion) {
    const environment = celEnvironmentFor(kubernetesVersion);
    return {
      environment,
      compileRules: (schema) => compileRulesIn(environment, schema),
      newRuleProblems: (schema, preexisting) =>
        newRuleProblems(schema, kubernetesVersion, preexisting),
      evaluateRules: (schema, value, options = {}) =>
        evaluateRules(schema, value, {
          ...options,
          environment,
          ...(kubernetesVersion === undefined ? {} : { kubernetesVersion }),
        }),
      syntaxError: (source) => syntaxErrorIn(environment, source),
      compileError: (source, declared, result) => {
        const syntax = syntaxErrorIn(environment, source);
        if (syntax !== undefined) return `compilation failed: ${syntax}`;
        const compiled = compileExpression(source, undefined, environment, undefined, declared);
        if (!('error' in compiled)) {
          if (result === undefined || !isUntypedField(parseExpression(source, environment).expr)) {
            return undefined;
          }
          // As Go prints the list of the types the field takes.
          return result.length === 1
            ? `must evaluate to ${result[0]}`
            : `must evaluate to one of [${result.join(' ')}]`;
        }
        // The rule compiler's other limits are a CRD rule's; only the names are checked here.
        // Only variables: a function this environment lacks (the authorizer library's
        // `authorizer.group(...)`) is the planner's to refuse, not the API server's.
        const undeclared = compiled.error.split('; ').flatMap((problem) => {
          if (!problem.startsWith(UNDECLARED)) return [];
          const at = variablePosition(source, problem.slice(UNDECLARED.length + 2, -1));
          return at === undefined
            ? []
            : [`ERROR: <input>:${at.line}:${at.col}: ${problem} (in container '')`];
        });
        return undeclared.length === 0 ? undefined : `compilation failed: ${undeclared.join('; ')}`;
      },
    };
  },
};
