/**
 * Compiles the CEL rules of a schema (`x-kubernetes-validations`, at any level) once per schema
 * object: each rule is checked for shape (`rule`, `message`, `messageExpression`, `reason`,
 * `fieldPath`, `optionalOldSelf`), and its expressions compiled (`compile-expression.ts`:
 * parsed, checked for names nothing defines, type-checked against the schema, their cost
 * estimated, and planned). A rule that does not compile, or whose estimated cost (times how
 * often it may run, and with the schema's other rules: `rule-costs.ts`) is over the API
 * server's budget, is a problem at its place in the schema, as the API server refuses such a
 * CRD. What it gives is in `compiled-rule.ts`.
 */

import type { CelEnv } from '@bufbuild/cel';
import { jsonPointer } from '../json-pointer.js';
import { celEnvironmentFor, DEFAULT_KUBERNETES_VERSION } from './cel-environment.js';
import { resolveFieldPath } from './field-path.js';
import { isSchemaNode, VALIDATIONS_KEYWORD, type SchemaNode } from '../schema-node.js';
import { unboundedCardinality } from './cost-estimate.js';
import { compileExpression, selfType, type SelfSchema } from './compile-expression.js';
import type { CompiledRule, CompiledRules, RuleProblem, RuleProgram } from './compiled-rule.js';
import { maxElements, observeCosts, schemaCostProblems, type ObservedCost } from './rule-costs.js';

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

/**
 * Compiled schemas, by environment: a memo of a pure function (the same environment and schema
 * compile the same), not a setting; an environment and its schemas are dropped together.
 */
const caches = new WeakMap<CelEnv, WeakMap<object, CompiledRules>>();

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
