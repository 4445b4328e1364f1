/**
 * The CEL side of kro RGDs, loaded only when a load has an RGD (CEL is the largest part of the
 * loaders): an expression's free variables (the resources it references), and its evaluation on
 * JSON documents. Expressions run in the CEL environment of the load's Kubernetes version, with
 * the Kubernetes libraries. A field that is absent (`no such key`) is not an error but a
 * value not there yet: the expression waits.
 *
 * An RGD's expressions read each variable as kro does (`buildContext`, `UnstructuredToVal`):
 * typed by the schema of what it is (the instance's, or its resource's kind), as the load-time
 * check types it, so a Secret's `data` values (`format: byte`) are bytes, a `date-time` a
 * timestamp; and as the API server serves it, a Secret's `stringData` merged into `data`.
 */

import { isCelError, type CelEnv } from '@bufbuild/cel';
import type { ExpressionOutcome } from '../../controllers/resource-graph.js';
import { celEnvironmentWith } from '../cel/cel-environment.js';
import { goEvaluationError } from '../cel/evaluation-error.js';
import { parseExpression, planExpression, type ParsedExpression } from '../cel/cel-expression.js';
import { toCelValue } from '../cel/cel-value.js';
import { servedValue } from '../kubernetes/served-secret.js';
import type { SchemaNode } from '../schema-node.js';
import { CostBudget, PER_CALL_COST_LIMIT } from '../cel/cost-budget.js';
import type { CelType } from '../cel/cel-types.js';
import { checkTypes, type TypeCheck } from '../cel/type-check.js';
import { expandMacroCalls, maxId } from '../cel/macro-calls.js';
import { chargeComprehensions } from '../cel/comprehension-charges.js';
import { renderedValue, UnconvertibleValue } from './cel-json.js';
import { KRO_CEL_EXTENSION, KRO_FUNCTION_NAMES } from './kro-cel-library.js';
import { rewriteRuntimeCalls, type RuntimeCalls } from './runtime-calls.js';

/** A parsed expression: its free variables, and how to evaluate it. */
export interface CompiledGraphExpression {
  readonly variables: readonly string[];
  /** It calls kro's `omit()`, which only a standalone template field may. */
  readonly usesOmit: boolean;
  /** The functions it calls that the environment does not have (kro: "uses unknown functions"). */
  readonly unknownFunctions: readonly string[];
  /** Its calls of kro's `runtime` library (custom status conditions: `runtime-calls.ts`). */
  readonly runtime: RuntimeCalls;
  /**
   * Its value with the variables of `scope`; with `schemaOf`, each variable is read as a
   * cluster serves it (see the top of this file), of the schema `schemaOf` gives its name.
   */
  evaluate(scope: Readonly<Record<string, unknown>>, schemaOf?: VariableSchemas): ExpressionOutcome;
  /** The compile-time type check with the variables of the given types (others are `dyn`). */
  readonly check: (variables: ReadonlyMap<string, CelType>) => TypeCheck;
}

/**
 * The schema of the value a variable holds (for a list, a schema of `type: array` whose `items`
 * is each one's); `undefined` where none is known (an iterator), read as JSON.
 */
export type VariableSchemas = (name: string) => SchemaNode | undefined;

interface ExprNode {
  exprKind: { case: string | undefined; value: unknown };
}

/**
 * Errors that mean the data is not there yet, which kro waits for rather than fails on
 * (pkg/runtime/errors.go `celDataPendingPatterns`): a key or field not set, a list without the
 * item read (`${cms[0]...}` of an empty collection).
 */
const MISSING = /^no such key|^no such field|^index out of bounds/;

/**
 * Compiled expressions by version and source, held weakly: an RGD repeats its expressions, and a
 * reload in watch compiles again the sources of the graph it replaces, which that graph holds.
 * No bound on the count (a bound smaller than one load's distinct sources made every load of a
 * large RGD compile all of them again); an expression nothing uses any more is let go.
 */
const compiledBySource = new Map<string, WeakRef<CompiledGraphExpression>>();
const forget = new FinalizationRegistry<string>((key) => {
  if (compiledBySource.get(key)?.deref() === undefined) compiledBySource.delete(key);
});

/**
 * Compiles one expression in the environment of `kubernetesVersion`, or says why it does not.
 * The same source in the same version is compiled once while its compiled form is in use (the
 * result is pure: see {@link compileExpression}).
 */
export function compileGraphExpression(
  source: string,
  kubernetesVersion?: string,
): CompiledGraphExpression | { error: string } {
  const key = `${kubernetesVersion ?? ''}\0${source}`;
  const known = compiledBySource.get(key)?.deref();
  if (known !== undefined) return known;
  const compiled = compileExpression(source, kubernetesVersion);
  if (!('error' in compiled)) {
    compiledBySource.set(key, new WeakRef(compiled));
    forget.register(compiled, key);
  }
  return compiled;
}

/** kro's CEL environment for a Kubernetes version (the newest when the version has none). */
function environment(kubernetesVersion?: string): CelEnv {
  try {
    return celEnvironmentWith(KRO_CEL_EXTENSION, kubernetesVersion);
  } catch {
    return celEnvironmentWith(KRO_CEL_EXTENSION);
  }
}

/**
 * Compiles one expression. Evaluation is a function of the values of its variables (CEL is pure,
 * and so are kro's functions), so the last outcome is given again while each variable is the
 * very same value (one instance's render reads `schema` in every resource); only outcomes that
 * are not objects are kept, so that no two renders share a mutable value.
 */
function compileExpression(
  source: string,
  kubernetesVersion?: string,
): CompiledGraphExpression | { error: string } {
  const env = environment(kubernetesVersion);
  let parsed: ParsedExpression;
  try {
    parsed = parseExpression(source, env);
  } catch (error) {
    return { error: (error as Error).message.replace(/^<input>:/, '') };
  }
  // kro's parse-time macro: runtime.newCondition's bare-name keys are strings.
  const runtime = rewriteRuntimeCalls(parsed.expr, parsed.sourceInfo?.positions ?? {});
  if ('error' in runtime) return runtime;
  // Planning rewrites the optional library's syntax and calls (`a.?b`, `x.orValue(y)`) in
  // place, and sortBy and the two-variable comprehensions are rewritten before: the check reads
  // a copy of the tree as parsed (it knows those calls as written).
  const parsedTree = structuredClone(parsed.expr);
  expandMacroCalls(env, parsed.expr);
  // Each element a comprehension visits spends the budget an evaluation runs against.
  chargeComprehensions(parsed.expr, maxId(parsed.expr) + 1n);
  const found: Found = { env, variables: new Set(), calls: new Set(), unknownFunctions: new Set() };
  collectVariables(parsed.expr as unknown as ExprNode, new Set(), found);
  const { variables, calls, unknownFunctions } = found;
  let program: ReturnType<typeof planExpression>;
  try {
    program = planExpression(env, parsed);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const names = [...variables];
  let lastInputs: unknown[] | undefined;
  let lastSchemas: VariableSchemas | undefined;
  let lastOutcome: ExpressionOutcome | undefined;
  const evaluate = (
    scope: Readonly<Record<string, unknown>>,
    schemaOf: VariableSchemas | undefined,
  ): ExpressionOutcome => {
    const bindings: Record<string, unknown> = {};
    for (const name of names) {
      const value = scope[name];
      if (value === undefined) return { missing: `${name} is not produced yet` };
      bindings[name] =
        schemaOf === undefined
          ? toCelValue(value, undefined)
          : toCelValue(servedValue(value), schemaOf(name));
    }
    const budget = new CostBudget();
    const outcome = budget.run(() => program(bindings as Parameters<typeof program>[0]));
    if ('exceeded' in outcome) {
      // kro sets no cost limit: the bound is cosi's (the API server's per-rule one), so that a
      // runaway expression ends the reconcile instead of the run.
      return {
        error: `the expression's evaluation cost exceeds cosi's limit of ${PER_CALL_COST_LIMIT} (the API server's per-rule limit; kro sets none, and would keep evaluating it)`,
      };
    }
    const result: unknown = outcome.value;
    if (isCelError(result)) {
      const message = goEvaluationError(result.message);
      return MISSING.test(message) ? { missing: message } : { error: message };
    }
    try {
      return { value: renderedValue(result) };
    } catch (error) {
      if (error instanceof UnconvertibleValue) return { error: error.message };
      throw error;
    }
  };
  return {
    variables: names,
    usesOmit: calls.has('omit'),
    unknownFunctions: [...unknownFunctions],
    runtime,
    check: (types) => checkTypes(parsedTree, types),
    evaluate(scope, schemaOf) {
      if (
        lastInputs !== undefined &&
        schemaOf === lastSchemas &&
        names.every((name, i) => scope[name] === lastInputs?.[i])
      ) {
        return lastOutcome as ExpressionOutcome;
      }
      const outcome = evaluate(scope, schemaOf);
      const keep =
        !('value' in outcome) || typeof outcome.value !== 'object' || outcome.value === null;
      lastInputs = keep ? names.map((name) => scope[name]) : undefined;
      lastSchemas = schemaOf;
      lastOutcome = keep ? outcome : undefined;
      return outcome;
    },
  };
}

/** What one walk of an expression finds (see {@link collectVariables}). */
interface Found {
  readonly env: CelEnv;
  /** Its free variables. */
  readonly variables: Set<string>;
  /** The global functions it calls (`omit`). */
  readonly calls: Set<string>;
  /** The functions it calls that `env` has no function of (kro: "uses unknown functions"). */
  readonly unknownFunctions: Set<string>;
}

/**
 * Walks an expression once for what compiling it needs to know: its free variables, the global
 * functions it calls, and those `env` does not have, resolved as the planner resolves them
 * (`ns.f(...)` first as the qualified name `ns.f`). The planner accepts an unknown function and
 * fails only when it is called; kro's checker refuses it.
 */
function collectVariables(node: ExprNode, scope: ReadonlySet<string>, found: Found): void {
  const { case: kind, value } = node.exprKind;
  const v = value as Record<string, unknown>;
  switch (kind) {
    case 'identExpr': {
      const name = v.name as string;
      if (!scope.has(name)) found.variables.add(name);
      return;
    }
    case 'selectExpr':
      collectVariables(v.operand as ExprNode, scope, found);
      return;
    case 'callExpr': {
      const name = v.function as string;
      const target = v.target as ExprNode | undefined;
      const qualifier = target === undefined ? undefined : qualifiedName(target);
      const namespaced =
        qualifier !== undefined && found.env.funcs.find(`${qualifier}.${name}`) !== undefined;
      if (!namespaced && !PLANNED_CALLS.has(name) && found.env.funcs.find(name) === undefined) {
        found.unknownFunctions.add(name);
      }
      // `random.seededString(...)`: `random` is the function's namespace, not a variable.
      if (target === undefined) found.calls.add(name);
      else if (!isKroFunction(target, name)) collectVariables(target, scope, found);
      for (const arg of v.args as ExprNode[]) collectVariables(arg, scope, found);
      return;
    }
    case 'listExpr':
      for (const element of v.elements as ExprNode[]) collectVariables(element, scope, found);
      return;
    case 'structExpr':
      for (const entry of v.entries as { mapKey?: ExprNode; value: ExprNode }[]) {
        if (entry.mapKey !== undefined) collectVariables(entry.mapKey, scope, found);
        collectVariables(entry.value, scope, found);
      }
      return;
    case 'comprehensionExpr': {
      collectVariables(v.iterRange as ExprNode, scope, found);
      collectVariables(v.accuInit as ExprNode, scope, found);
      const inner = new Set([...scope, v.iterVar as string, v.accuVar as string]);
      if (typeof v.iterVar2 === 'string' && v.iterVar2 !== '') inner.add(v.iterVar2);
      for (const key of ['loopCondition', 'loopStep', 'result']) {
        collectVariables(v[key] as ExprNode, inner, found);
      }
      return;
    }
    default:
      return;
  }
}

/** The calls the planner evaluates itself, not as functions of the environment. */
const PLANNED_CALLS: ReadonlySet<string> = new Set([
  '_[_]',
  '_[?_]',
  '_?._',
  '_?_:_',
  '_&&_',
  '_||_',
  '@not_strictly_false',
  '__not_strictly_false__',
]);

/** `a.b.c` of an identifier or a selection of one, as the planner qualifies a call's target. */
function qualifiedName(node: ExprNode): string | undefined {
  const { case: kind, value } = node.exprKind;
  if (kind === 'identExpr') return (value as { name: string }).name;
  if (kind !== 'selectExpr') return undefined;
  const v = value as { operand: ExprNode; field: string; testOnly?: boolean };
  if (v.testOnly === true) return undefined;
  const operand = qualifiedName(v.operand);
  return operand === undefined ? undefined : `${operand}.${v.field}`;
}

/** The optional library's namespaced functions (`optional.none()`): no variable `optional`. */
const OPTIONAL_FUNCTION_NAMES: ReadonlySet<string> = new Set([
  'optional.of',
  'optional.ofNonZeroValue',
  'optional.none',
]);

/** Whether `target.function(...)` calls one of kro's or CEL's namespaced functions. */
function isKroFunction(target: ExprNode, name: string): boolean {
  const { case: kind, value } = target.exprKind;
  if (kind !== 'identExpr') return false;
  const qualified = `${(value as { name: string }).name}.${name}`;
  return KRO_FUNCTION_NAMES.has(qualified) || OPTIONAL_FUNCTION_NAMES.has(qualified);
}
