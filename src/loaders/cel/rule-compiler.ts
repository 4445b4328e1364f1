/**
 * Compiles the CEL rules of a schema (`x-kubernetes-validations`, at any level) once per schema
 * object: each rule is checked for shape (`rule`, `message`, `messageExpression`, `reason`,
 * `fieldPath`, `optionalOldSelf`), parsed, checked for names nothing defines, type-checked
 * against the schema (`type-check.ts`), its cost estimated (`cost-estimate.ts`), and planned. A
 * rule that does not compile, or whose estimated cost (times how often it may run, and with the
 * schema's other rules) is over the API server's budget, is a problem at its place in the
 * schema, as the API server refuses such a CRD.
 */

import {
  LIBRARY_TYPE_BINDINGS,
  LIBRARY_TYPE_IDENTIFIERS,
} from './kubernetes-library/library-types.js';
import type { CelEnv, CelResult } from '@bufbuild/cel';
import { parseExpression, planExpression, type ParsedExpression } from './cel-expression.js';
import { jsonPointer } from '../json-pointer.js';
import { celEnvironmentFor, DEFAULT_KUBERNETES_VERSION } from './cel-environment.js';
import { chargeComprehension } from './comprehension-charges.js';
import { expandMacroCall, maxId } from './macro-calls.js';
import { resolveFieldPath } from './field-path.js';
import { isSchemaNode, VALIDATIONS_KEYWORD, type SchemaNode } from '../schema-node.js';
import { DYN, schemaCelType, type CelType } from './cel-types.js';
import { checkTypes, type ExprNode } from './type-check.js';
import { MAX_RECURSION_DEPTH, recursionDepth } from './parse-depth.js';
import { literalEntries } from './literal-entries.js';
import {
  costExceededMessage,
  estimateCost,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  unboundedCardinality,
} from './cost-estimate.js';

/** What a compiled expression is evaluated with. */
export type RuleBindings = Readonly<Record<string, unknown>>;

/** A planned expression. */
export type RuleProgram = (bindings: RuleBindings) => CelResult;

/** One compiled rule of one schema node. */
export interface CompiledRule {
  /** The rule's text, for "failed rule: ..." and for reports. */
  readonly rule: string;
  readonly program: RuleProgram;
  readonly message?: string;
  readonly messageExpression?: RuleProgram;
  /** `FieldValueInvalid` (the API server's default), `FieldValueForbidden`, ... */
  readonly reason: string;
  /** Where a violation is reported, below the node: the keys of `fieldPath`. */
  readonly fieldPath: readonly string[];
  /** Whether the rule reads `oldSelf`: a transition rule, evaluated on updates only. */
  readonly transition: boolean;
  /** `optionalOldSelf`: evaluated on creates too, with `oldSelf` an optional. */
  readonly optionalOldSelf: boolean;
  /**
   * The static cost estimate of one evaluation of the rule (`cost-estimate.ts`); the API server
   * multiplies it by how many times the rule may run for one object.
   */
  readonly estimatedCost: number;
  /** The message expression's static cost estimate (0 without one). */
  readonly estimatedMessageCost: number;
}

/** A rule that does not compile, at its place in the schema (JSON pointer). */
export interface RuleProblem {
  readonly path: string;
  readonly message: string;
  /**
   * What is wrong, stable: `rule-shape` (a field of the rule), `rule-message` (a rule on several
   * lines without a message), `rule-field-path`, `rule-compile`, `message-expression-compile`,
   * `optional-old-self` (set on a rule that does not use `oldSelf`), `uncorrelatable-old-self`
   * (`oldSelf` below the items of a list that is not a `map` list), `nested-validations` (rules in `allOf`, `anyOf`,
   * `oneOf` or `not`), `rule-cost` (a rule's or message expression's estimated cost over the
   * API server's limit), `schema-cost` (the estimated cost of all the rules together over it).
   */
  readonly rule: string;
}

/** The rules of a schema: by schema node, and the problems of those that did not compile. */
export interface CompiledRules {
  /** The compiled rules of a node of the schema (none for a node without rules). */
  rulesAt(node: SchemaNode): readonly CompiledRule[];
  readonly problems: readonly RuleProblem[];
  /** Whether the schema has any rule at all (then documents are walked). */
  readonly hasRules: boolean;
}

/** The reasons a rule may give, as the API server accepts them. */
export const RULE_REASONS = [
  'FieldValueInvalid',
  'FieldValueForbidden',
  'FieldValueRequired',
  'FieldValueDuplicate',
] as const;

/** Keywords under which the walk finds the subschemas that values are checked against. */
const SUBSCHEMA_KEYS = ['items', 'additionalProperties'] as const;

/** Keywords whose subschemas only validate: the API server refuses rules anywhere below them. */
const JUNCTORS = ['allOf', 'anyOf', 'oneOf', 'not'] as const;

/** Longest rule or message expression accepted, in characters. */
const MAX_EXPRESSION_LENGTH = 10_000;

/**
 * Compiled schemas, by environment: a memo of a pure function (the same environment and schema
 * compile the same), not a setting; an environment and its schemas are dropped together.
 */
const caches = new WeakMap<CelEnv, WeakMap<object, CompiledRules>>();

/** The type names a rule may use as values (`type(self.x) == string`). */
const TYPE_NAMES = new Set([
  'bool',
  'bytes',
  'double',
  'int',
  'list',
  'map',
  'null_type',
  'string',
  'type',
  'uint',
]);

/** A function name a rule can write (operators are spelt `_+_`, `@in`). */
const OPERATOR = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The compiled rules of a schema, in the CEL environment of the API server of
 * `kubernetesVersion` (`'1.30'`; {@link DEFAULT_KUBERNETES_VERSION} unless given: see
 * `celEnvironmentFor`); the same object again for the same schema object and version.
 */
export function compileRules(
  schema: object,
  kubernetesVersion: string = DEFAULT_KUBERNETES_VERSION,
): CompiledRules {
  return compileRulesIn(celEnvironmentFor(kubernetesVersion), schema);
}

/**
 * The compiled rules of a schema in the CEL environment `env` (one of `celEnvironmentFor`'s);
 * the same object again for the same environment and schema object.
 */
export function compileRulesIn(env: CelEnv, schema: object): CompiledRules {
  let cache = caches.get(env);
  if (cache === undefined) {
    cache = new WeakMap();
    caches.set(env, cache);
  }
  let compiled = cache.get(schema);
  if (compiled === undefined) {
    compiled = compileSchema(schema, env);
    cache.set(schema, compiled);
  }
  return compiled;
}

function compileSchema(schema: object, env: CelEnv): CompiledRules {
  const byNode = new Map<SchemaNode, CompiledRule[]>();
  const problems: RuleProblem[] = [];
  const seen = new Set<object>();
  const costs: ObservedCost[] = [];
  /**
   * `uncorrelatable` is the pointer of the nearest node below which an old value cannot be told
   * (the items of a list that is not a `map` list), as the API
   * server tracks it: a rule there may not read `oldSelf`. `cardinality` is how many times the
   * node's rules may run for one object, from the `maxItems` and `maxProperties` above it (the
   * API server's `MaxCardinality`); undefined when unbounded.
   */
  const walk = (
    node: unknown,
    path: (string | number)[],
    uncorrelatable: string | undefined,
    cardinality: number | undefined,
  ): void => {
    if (!isSchemaNode(node) || seen.has(node)) return;
    seen.add(node);
    const rules = node[VALIDATIONS_KEYWORD];
    if (rules !== undefined) {
      const at = [...path, VALIDATIONS_KEYWORD];
      if (!Array.isArray(rules)) {
        problems.push({
          path: jsonPointer(at),
          message: `${VALIDATIONS_KEYWORD} must be a list of rules`,
          rule: 'rule-shape',
        });
      } else {
        const compiled: CompiledRule[] = [];
        const self = { node, root: path.length === 0 };
        const times = cardinality ?? unboundedCardinality(selfType(self));
        rules.forEach((rule: unknown, i) => {
          const result = compileRule(rule, [...at, i], self, env);
          if ('problem' in result) {
            problems.push(result.problem);
            return;
          }
          const overBudget = observeCosts(result.rule, [...at, i], times, costs);
          problems.push(...overBudget);
          if (result.rule.transition && uncorrelatable !== undefined) {
            problems.push({
              path: jsonPointer([...at, i, 'rule']),
              message: `oldSelf cannot be used below ${uncorrelatable || '/'}: the items of a list that is not x-kubernetes-list-type: map have no old value to compare with`,
              rule: 'uncorrelatable-old-self',
            });
          } else if (overBudget.length === 0) compiled.push(result.rule);
        });
        if (compiled.length > 0) byNode.set(node, compiled);
      }
    }
    const elements = maxElements(node);
    const below =
      cardinality === undefined || elements === undefined ? undefined : cardinality * elements;
    if (isSchemaNode(node.properties)) {
      // A map's fields correlate by name whatever its map type, atomic included (the API
      // server's MapIsCorrelatable).
      for (const [key, child] of Object.entries(node.properties))
        walk(child, [...path, 'properties', key], uncorrelatable, below);
    }
    const items =
      node['x-kubernetes-list-type'] === 'map'
        ? uncorrelatable
        : (uncorrelatable ?? jsonPointer(path));
    walk(node.items, [...path, 'items'], items, below);
    walk(node.additionalProperties, [...path, 'additionalProperties'], uncorrelatable, below);
    for (const junctor of JUNCTORS) findNestedRules(node[junctor], [...path, junctor], problems);
  };
  walk(schema, [], undefined, 1);
  problems.push(...schemaCostProblems(costs));
  return {
    rulesAt: (node) => byNode.get(node) ?? [],
    problems,
    hasRules: byNode.size > 0,
  };
}

/** A rule's (and its message expression's) estimated cost, and where it is. */
interface ObservedCost {
  readonly path: string;
  readonly cost: number;
}

/**
 * Records the estimated costs of a compiled rule at `at` that may run `times` times for one
 * object, as the API server counts them: the rule's estimate times `times`, its message
 * expression's as it is. The problems of those over the limit of one expression.
 */
function observeCosts(
  rule: CompiledRule,
  at: readonly (string | number)[],
  times: number,
  costs: ObservedCost[],
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const observe = (field: string, what: string, cost: number): void => {
    const path = jsonPointer([...at, field]);
    if (cost > STATIC_ESTIMATED_COST_LIMIT) {
      problems.push({
        path,
        message: costExceededMessage(what, cost, STATIC_ESTIMATED_COST_LIMIT),
        rule: 'rule-cost',
      });
    }
    costs.push({ path, cost });
  };
  observe('rule', 'estimated rule cost', rule.estimatedCost * times);
  if (rule.estimatedMessageCost > 0) {
    observe('messageExpression', 'estimated messageExpression cost', rule.estimatedMessageCost);
  }
  return problems;
}

/**
 * How many values a node's children may have (the API server's `extractMaxElements`): an
 * object's with `additionalProperties` its `maxProperties`, an array's its `maxItems`
 * (undefined without), any other node's 1.
 */
function maxElements(node: SchemaNode): number | undefined {
  const limit = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : undefined;
  if (node.type === 'object' && node.additionalProperties !== undefined) {
    return limit(node.maxProperties);
  }
  if (node.type === 'array') return limit(node.maxItems);
  return 1;
}

/** The share of the schema's cost budget a rule must have to be named when it is exceeded. */
const NAMED_SHARE = STATIC_ESTIMATED_CRD_COST_LIMIT / 100;

/**
 * The problems of a schema whose rules' estimated costs together exceed the API server's budget
 * for one CRD: one at the schema, and one at each of the (at most four) costliest rules that
 * take at least a hundredth of it.
 */
function schemaCostProblems(costs: readonly ObservedCost[]): RuleProblem[] {
  const total = costs.reduce((sum, { cost }) => sum + cost, 0);
  if (total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
  const costliest = costs
    .filter(({ cost }) => cost >= NAMED_SHARE)
    .sort((a, b) => b.cost - a.cost)
    .slice(0, 4);
  return [
    ...costliest.map(({ path }) => ({
      path,
      message:
        'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      rule: 'schema-cost',
    })),
    {
      path: '',
      message: costExceededMessage(
        'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
        total,
        STATIC_ESTIMATED_CRD_COST_LIMIT,
      ),
      rule: 'schema-cost',
    },
  ];
}

/** Reports every `x-kubernetes-validations` below a junctor: they would never be evaluated. */
function findNestedRules(value: unknown, path: (string | number)[], problems: RuleProblem[]): void {
  if (Array.isArray(value)) {
    value.forEach((item: unknown, i) => findNestedRules(item, [...path, i], problems));
    return;
  }
  if (!isSchemaNode(value)) return;
  if (value[VALIDATIONS_KEYWORD] !== undefined) {
    problems.push({
      path: jsonPointer([...path, VALIDATIONS_KEYWORD]),
      message: `${VALIDATIONS_KEYWORD} is not allowed inside allOf, anyOf, oneOf or not: put the rule on the node itself`,
      rule: 'nested-validations',
    });
  }
  if (isSchemaNode(value.properties)) {
    for (const [key, child] of Object.entries(value.properties))
      findNestedRules(child, [...path, 'properties', key], problems);
  }
  for (const key of [...SUBSCHEMA_KEYS, ...JUNCTORS])
    findNestedRules(value[key], [...path, key], problems);
}

function compileRule(
  value: unknown,
  at: (string | number)[],
  self: SelfSchema,
  env: CelEnv,
): { rule: CompiledRule } | { problem: RuleProblem } {
  const fail = (
    field: string | undefined,
    message: string,
    rule = 'rule-shape',
  ): { problem: RuleProblem } => ({
    problem: { path: jsonPointer(field === undefined ? at : [...at, field]), message, rule },
  });
  if (!isSchemaNode(value))
    return fail(undefined, 'a validation rule must be a mapping with a rule');
  const known = new Set([
    'rule',
    'message',
    'messageExpression',
    'reason',
    'fieldPath',
    'optionalOldSelf',
  ]);
  for (const key of Object.keys(value)) {
    if (!known.has(key))
      return fail(key, `unknown field ${JSON.stringify(key)} in a validation rule`);
  }
  const { rule, message, messageExpression, reason, fieldPath, optionalOldSelf } = value;
  if (typeof rule !== 'string' || rule.trim() === '')
    return fail('rule', 'rule must be a non-empty string');
  if (
    message !== undefined &&
    (typeof message !== 'string' || message.trim() === '' || /[\r\n]/.test(message))
  ) {
    return fail('message', 'message must be a non-empty string on one line');
  }
  // The API server asks a rule on several lines for a message (a messageExpression is not
  // enough): its text would not make a one-line "failed rule: ..." sentence.
  if (/[\r\n]/.test(rule.trim()) && (typeof message !== 'string' || message.trim() === '')) {
    return fail('message', 'a rule that spans several lines needs a message', 'rule-message');
  }
  if (
    messageExpression !== undefined &&
    (typeof messageExpression !== 'string' || messageExpression.trim() === '')
  ) {
    return fail('messageExpression', 'messageExpression must be a non-empty string');
  }
  if (reason !== undefined && !(RULE_REASONS as readonly unknown[]).includes(reason)) {
    return fail('reason', `reason must be one of ${RULE_REASONS.join(', ')}`);
  }
  let path: string[] = [];
  if (fieldPath !== undefined) {
    // As the API server: a string, not blank, on one line, naming a field below the node.
    if (typeof fieldPath !== 'string' || fieldPath.trim() === '') {
      return fail('fieldPath', 'fieldPath must be a non-empty string', 'rule-field-path');
    }
    if (/[\r\n]/.test(fieldPath)) {
      return fail('fieldPath', 'fieldPath must not contain line breaks', 'rule-field-path');
    }
    const resolved = resolveFieldPath(fieldPath, self.node);
    if ('error' in resolved) {
      return fail(
        'fieldPath',
        `fieldPath must be a valid path to a field below the rule's node (.spec.name, .map['key with.dots']): ${resolved.error}`,
        'rule-field-path',
      );
    }
    path = resolved.keys;
  }
  if (optionalOldSelf !== undefined && typeof optionalOldSelf !== 'boolean') {
    return fail('optionalOldSelf', 'optionalOldSelf must be a boolean');
  }
  const program = compileExpression(
    rule,
    { ...self, optionalOldSelf: optionalOldSelf === true },
    env,
    'bool',
  );
  if ('error' in program) {
    return fail('rule', `the rule does not compile: ${program.error}`, 'rule-compile');
  }
  if (optionalOldSelf !== undefined && !program.transition) {
    return fail(
      'optionalOldSelf',
      'optionalOldSelf may not be set (even to false) on a rule that does not use oldSelf',
      'optional-old-self',
    );
  }
  let messageProgram: RuleProgram | undefined;
  let messageCost = 0;
  if (typeof messageExpression === 'string') {
    const compiled = compileExpression(
      messageExpression,
      { ...self, optionalOldSelf: optionalOldSelf === true },
      env,
      'string',
    );
    if ('error' in compiled) {
      return fail(
        'messageExpression',
        `the messageExpression does not compile: ${compiled.error}`,
        'message-expression-compile',
      );
    }
    messageProgram = compiled.program;
    messageCost = compiled.estimatedCost;
  }
  return {
    rule: {
      rule,
      program: program.program,
      ...(message === undefined ? {} : { message }),
      ...(messageProgram === undefined ? {} : { messageExpression: messageProgram }),
      reason: (reason as string | undefined) ?? 'FieldValueInvalid',
      fieldPath: path,
      transition: program.transition,
      optionalOldSelf: optionalOldSelf === true,
      estimatedCost: program.estimatedCost,
      estimatedMessageCost: messageCost,
    },
  };
}

/** The variables a CRD's rule sees. */
const RULE_VARIABLES: ReadonlySet<string> = new Set(['self', 'oldSelf']);

/**
 * Parses, checks and plans one expression. The check refuses names nothing defines (`declared`
 * are the variables: a CRD rule's `self` and `oldSelf` unless given; a typo in a function or
 * variable is a rule that does not compile, as in the API server, not a failure of
 * every document) and, given the schema of `self`, what its type check proves wrong
 * (`type-check.ts`: a field the schema does not declare, `self == 'abc'` on an integer, a result
 * that is not `result`'s type); the rewrite charges each comprehension for its range
 * (`comprehension-charges.ts`). `estimatedCost` is the static estimate of one evaluation
 * (`cost-estimate.ts`; 0 without `self`).
 */
export function compileExpression(
  source: string,
  self?: SelfSchema,
  env: CelEnv = celEnvironmentFor(),
  result?: 'bool' | 'string',
  declared: ReadonlySet<string> = RULE_VARIABLES,
): { program: RuleProgram; transition: boolean; estimatedCost: number } | { error: string } {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    return { error: `longer than ${MAX_EXPRESSION_LENGTH} characters` };
  }
  let parsed: ParsedExpression;
  try {
    parsed = parseExpression(source, env);
  } catch (error) {
    return {
      error: (error instanceof Error ? error.message : String(error)).replace(/^<input>:/, ''),
    };
  }
  if (recursionDepth(parsed.expr) > MAX_RECURSION_DEPTH) {
    return { error: `max recursion depth exceeded (${MAX_RECURSION_DEPTH} levels)` };
  }
  let estimatedCost = 0;
  let types: ReadonlyMap<ExprNode, CelType> | undefined;
  if (self !== undefined) {
    const typed = typeCheck(parsed.expr, self);
    types = typed.types;
    if (typed.errors.length > 0) return { error: typed.errors.join('; ') };
    const type = typed.type;
    if (result === 'bool' && type.kind !== 'dyn' && type.kind !== 'bool') {
      return { error: 'cel expression must evaluate to a bool' };
    }
    if (result === 'string' && type.kind !== 'dyn' && type.kind !== 'string') {
      return { error: 'messageExpression must evaluate to a string' };
    }
    estimatedCost = typed.estimatedCost;
  }
  const problems: string[] = [];
  let transition = false;
  /** Whether the expression names a library type (`net.IP`): its program binds them. */
  const names = { libraryTypes: false };
  let nextId = maxId(parsed.expr) + 1n;
  const visit = (node: ExprNode, scope: ReadonlySet<string>): void => {
    const { case: kind, value } = node.exprKind;
    const v = value as Record<string, unknown>;
    switch (kind) {
      case 'identExpr': {
        const name = v.name as string;
        if (name === 'oldSelf') transition = true;
        if (!scope.has(name) && !declared.has(name) && !TYPE_NAMES.has(name)) {
          problems.push(`undeclared reference to '${name}'`);
        }
        return;
      }
      case 'selectExpr': {
        const qualified = qualifiedName(node);
        const typeName =
          qualified === undefined ? undefined : LIBRARY_TYPE_IDENTIFIERS.get(qualified);
        if (
          typeName !== undefined &&
          !scope.has(qualified?.split('.')[0] ?? '') &&
          env.funcs.find(typeName.declaredWith) !== undefined
        ) {
          // `net.IP`: a type of the libraries, as a value.
          names.libraryTypes = true;
          return;
        }
        visit(v.operand as ExprNode, scope);
        return;
      }
      case 'callExpr': {
        const name = v.function as string;
        const target = v.target as ExprNode | undefined;
        const args = v.args as ExprNode[];
        // cel-go's macros with variables @bufbuild/cel's parser does not expand.
        const expanded =
          target === undefined
            ? undefined
            : expandMacroCall(env, name, target, args, () => nextId++);
        if (expanded !== undefined) {
          node.exprKind = expanded.exprKind;
          visit(node, scope);
          return;
        }
        const qualified = target === undefined ? undefined : qualifiedName(target);
        if (qualified !== undefined && env.funcs.find(`${qualified}.${name}`) !== undefined) {
          // `format.named(...)`: a namespaced function, not a method of a variable.
        } else {
          // Operators (`_&&_`, `@not_strictly_false`) are the planner's own: no rule can name one.
          if (OPERATOR.test(name) && env.funcs.find(name) === undefined) {
            problems.push(`undeclared reference to '${name}'`);
          }
          if (target !== undefined) visit(target, scope);
        }
        for (const arg of v.args as ExprNode[]) visit(arg, scope);
        return;
      }
      case 'listExpr':
        for (const element of v.elements as ExprNode[]) visit(element, scope);
        return;
      case 'structExpr':
        for (const entry of literalEntries(v)) {
          if (entry.key !== undefined) visit(entry.key, scope);
          visit(entry.value, scope);
        }
        return;
      case 'comprehensionExpr': {
        visit(v.iterRange as ExprNode, scope);
        visit(v.accuInit as ExprNode, scope);
        const inner = new Set([...scope, v.iterVar as string, v.accuVar as string]);
        if (v.iterVar2) inner.add(v.iterVar2 as string);
        for (const key of ['loopCondition', 'loopStep', 'result']) visit(v[key] as ExprNode, inner);
        chargeComprehension(v, nextId);
        nextId += 2n;
        return;
      }
      default:
        return;
    }
  };
  visit(parsed.expr, new Set());
  if (problems.length > 0) return { error: [...new Set(problems)].join('; ') };
  try {
    const planned = planExpression(env, parsed, types) as RuleProgram;
    const program: RuleProgram = names.libraryTypes
      ? (bindings) => planned({ ...LIBRARY_TYPE_BINDINGS, ...bindings })
      : planned;
    return { program, transition, estimatedCost };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The schema node a rule is written on: what `self` (and `oldSelf`) is. */
export interface SelfSchema {
  readonly node: SchemaNode;
  /** The schema's root: a CRD's rules there also see `apiVersion`, `kind` and `metadata`. */
  readonly root: boolean;
  /** The rule's `optionalOldSelf`: `oldSelf` is an optional of `self`'s type. */
  readonly optionalOldSelf?: boolean;
}

/**
 * The declared type of the rule's node, as the API server declares `self` (undefined when it
 * does not expose the node: then the rule's variables are `dyn` here).
 */
function selfType(self: SelfSchema): CelType | undefined {
  return schemaCelType(
    self.node,
    self.root || self.node['x-kubernetes-embedded-resource'] === true,
  );
}

/** The type check and static cost estimate of an expression on the rule's node. */
function typeCheck(
  expr: ExprNode,
  self: SelfSchema,
): {
  type: CelType;
  types: ReadonlyMap<ExprNode, CelType>;
  errors: readonly string[];
  estimatedCost: number;
} {
  const declared = selfType(self);
  const type = declared ?? DYN;
  const variables = new Map<string, CelType>([
    ['self', type],
    ['oldSelf', self.optionalOldSelf === true ? { kind: 'optional', value: type } : type],
  ]);
  const checked = checkTypes(expr, variables);
  return {
    type: checked.type,
    types: checked.types,
    errors: checked.errors,
    estimatedCost: checked.errors.length > 0 ? 0 : estimateCost(expr, checked.types, declared),
  };
}

/** `a.b.c` when `node` is a chain of selects on an identifier. */
function qualifiedName(node: ExprNode): string | undefined {
  const v = node.exprKind.value as Record<string, unknown>;
  if (node.exprKind.case === 'identExpr') return v.name as string;
  if (node.exprKind.case === 'selectExpr' && v.testOnly !== true) {
    const operand = qualifiedName(v.operand as ExprNode);
    return operand === undefined ? undefined : `${operand}.${v.field as string}`;
  }
  return undefined;
}
