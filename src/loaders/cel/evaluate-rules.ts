/**
 * Evaluates the CEL rules of a schema on a value that passed the schema, as the API server does:
 * each rule with `self` bound to the node that carries it, and, on an update, `oldSelf` bound to
 * the previous revision's value at the same node. Transition rules (those that read `oldSelf`)
 * are skipped on a create, and on nodes with no previous value, unless `optionalOldSelf`.
 *
 * Previous values are found the way the API server correlates them: by key under objects, by
 * the `x-kubernetes-list-map-keys` under `x-kubernetes-list-type: map` lists, by value under
 * `set` lists; items of other lists have no previous value.
 *
 * On an update, a violation of a rule that does not read `oldSelf` is not reported when the
 * node that carries the rule is unchanged (ratcheting, see `ratcheting.ts`).
 */

import { isCelError, type CelEnv, type CelValue } from '@bufbuild/cel';
import { goEvaluationError, isNoSuchOverload } from './evaluation-error.js';
import { jsonPointer } from '../json-pointer.js';
import { correlate, type CorrelatedValue } from '../ratcheting.js';
import { toCelValue } from './cel-value.js';
import { CostBudget, CostLimitError } from './cost-budget.js';
import { NONE, Optional } from './kubernetes-library/optional.js';
import { compileRules, compileRulesIn } from './rule-compiler.js';
import type { CompiledRule, RuleBindings } from './compiled-rule.js';
import { childSchema, isSchemaNode, type SchemaNode } from '../schema-node.js';
import { DEFAULT_KUBERNETES_VERSION, kubernetesMinor } from './cel-environment.js';
import { evaluationFieldError, violationFieldError, type RuleNode } from './rule-field-error.js';

/** What a rule reported about a value: where (JSON pointer inside the value) and why. */
export interface RuleViolation {
  readonly path: string;
  /** `cel-violation`: the rule was false; the others: it could not be decided. */
  readonly code: 'cel-violation' | 'cel-evaluation-error' | 'cel-cost-exceeded';
  readonly message: string;
  /** The rule's `reason` (`FieldValueInvalid` unless it says). */
  readonly reason: string;
  /** The rule's text. */
  readonly rule: string;
  /**
   * The violation as the API server words it after the field path (`rule-field-error.ts`), for a
   * Kubernetes object: `Invalid value: "object": <message>` before 1.35; unset for a cost limit.
   */
  readonly apiServerMessage?: string;
}

/** Options of {@link evaluateRules}. */
export interface EvaluateRulesOptions {
  /** The previous revision's value: present for an update, absent for a create. */
  readonly previous?: { readonly value: unknown };
  /** The document's budget; a fresh one ({@link CostBudget}'s defaults) when omitted. */
  readonly budget?: CostBudget;
  /** The value is a whole Kubernetes object: its `apiVersion` and `kind` never ratchet. */
  readonly typeMeta?: boolean;
  /**
   * The Kubernetes version whose CEL environment the rules compile in (see `compileRules`) and
   * whose API server's words {@link RuleViolation.apiServerMessage} are;
   * {@link DEFAULT_KUBERNETES_VERSION} unless given.
   */
  readonly kubernetesVersion?: string;
  /** The CEL environment the rules compile in; when given, it is not built from the version. */
  readonly environment?: CelEnv;
}

/** Every violation of the schema's rules by `value`, in document order. */
export function evaluateRules(
  schema: object,
  value: unknown,
  options: EvaluateRulesOptions = {},
): RuleViolation[] {
  const compiled =
    options.environment === undefined
      ? compileRules(schema, options.kubernetesVersion)
      : compileRulesIn(options.environment, schema);
  if (!compiled.hasRules) return [];
  const budget = options.budget ?? new CostBudget();
  const minor = kubernetesMinor(options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION);
  const violations: RuleViolation[] = [];
  let stopped = false;

  const evaluate = (
    rule: CompiledRule,
    node: SchemaNode,
    current: unknown,
    old: { value: unknown } | undefined,
    path: (string | number)[],
  ): void => {
    if (rule.transition && old === undefined && !rule.optionalOldSelf) return;
    const bindings: Record<string, unknown> = { self: toCelValue(current, node) };
    if (rule.transition) {
      const oldSelf = old === undefined ? undefined : toCelValue(old.value, node);
      bindings.oldSelf = rule.optionalOldSelf
        ? oldSelf === undefined
          ? NONE
          : new Optional(oldSelf as CelValue)
        : oldSelf;
    }
    const report = (
      code: RuleViolation['code'],
      message: string,
      apiServerMessage?: string,
      at = path,
    ): void => {
      violations.push({
        path: jsonPointer(at),
        code,
        message,
        reason: rule.reason,
        rule: rule.rule,
        ...(apiServerMessage === undefined ? {} : { apiServerMessage }),
      });
    };
    // What the API server's error names of the node; built only for a rule that fails.
    const failedNode = (): RuleNode => ({
      type: typeof node.type === 'string' ? node.type : '',
      value: current,
    });
    const outcome = budget.run(() => rule.program(bindings));
    if ('exceeded' in outcome) {
      report('cel-cost-exceeded', `${outcome.exceeded.message}: ${rule.rule}`);
      if (outcome.exceeded.limit === 'document') stopped = true;
      return;
    }
    const result = outcome.value;
    if (isCelError(result)) {
      const detail = evaluationErrorDetail(goEvaluationError(result.message), rule);
      // The rule's text is named once: in the detail when the rule has no message.
      const named = (rule.message?.trim() ?? '') === '' ? '' : ` (rule: ${rule.rule})`;
      report(
        'cel-evaluation-error',
        `the rule could not be evaluated: ${detail}${named}`,
        evaluationFieldError(detail, failedNode()),
      );
      return;
    }
    if (result === true) return;
    // As the API server: a false rule ratchets, an error that stops one does not.
    if (result === false && !rule.transition && ratchet?.at(path).unchanged === true) return;
    if (typeof result !== 'boolean') {
      report(
        'cel-evaluation-error',
        `the rule must evaluate to a bool, not ${describe(result)} (rule: ${rule.rule})`,
      );
      return;
    }
    const message = violationMessage(rule, bindings, budget);
    report(
      'cel-violation',
      message,
      violationFieldError(rule.reason, message, failedNode(), minor),
      [...path, ...rule.fieldPath],
    );
  };

  const visit = (
    node: SchemaNode,
    current: unknown,
    old: { value: unknown } | undefined,
    path: (string | number)[],
  ): void => {
    for (const rule of compiled.rulesAt(node)) {
      if (stopped) return;
      evaluate(rule, node, current, old, path);
    }
    if (Array.isArray(current)) {
      const items = childSchema(node, 'items');
      if (items === undefined) return;
      const previousOf = correlation(node, old?.value);
      current.forEach((item: unknown, i) => {
        if (!stopped) visit(items, item, previousOf(item), [...path, i]);
      });
    } else if (typeof current === 'object' && current !== null) {
      const previous = isObject(old?.value) ? old.value : undefined;
      for (const [key, child] of Object.entries(current)) {
        const schema = childSchema(node, 'property', key);
        if (schema === undefined || stopped) continue;
        const before =
          previous !== undefined && Object.prototype.hasOwnProperty.call(previous, key)
            ? { value: previous[key] }
            : undefined;
        visit(schema, child, before, [...path, key]);
      }
    }
  };

  // Ratcheting (an update's): which nodes changed, found when a rule is false at one.
  const previous = options.previous;
  const ratchet: CorrelatedValue | undefined =
    previous === undefined
      ? undefined
      : correlate(value, previous.value, schema, { typeMeta: options.typeMeta === true });
  if (isSchemaNode(schema)) visit(schema, value, previous, []);
  return violations;
}

/** How an item of a list finds its previous value, from the list's `x-kubernetes-list-type`. */
function correlation(
  node: SchemaNode,
  old: unknown,
): (item: unknown) => { value: unknown } | undefined {
  if (!Array.isArray(old)) return () => undefined;
  const type = node['x-kubernetes-list-type'];
  if (type === 'set') {
    const values = new Set(old.map((item) => JSON.stringify(item)));
    return (item) => (values.has(JSON.stringify(item)) ? { value: item } : undefined);
  }
  const keys = node['x-kubernetes-list-map-keys'];
  if (type === 'map' && Array.isArray(keys)) {
    const keyOf = (item: unknown): string | undefined =>
      isObject(item) ? JSON.stringify(keys.map((k) => item[String(k)] ?? null)) : undefined;
    const byKey = new Map<string, unknown>();
    for (const item of old) {
      const key = keyOf(item);
      if (key !== undefined) byKey.set(key, item);
    }
    return (item) => {
      const key = keyOf(item);
      return key !== undefined && byKey.has(key) ? { value: byKey.get(key) } : undefined;
    };
  }
  return () => undefined;
}

/**
 * An evaluation error as the API server words it, with the rule's message when it has one
 * (`ruleErrorString`).
 */
function evaluationErrorDetail(error: string, rule: CompiledRule): string {
  return isNoSuchOverload(error)
    ? `'${error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`
    : `${error} evaluating rule: ${ruleErrorString(rule)}`;
}

/** How the API server names a rule in an error: by its message, else its text. */
function ruleErrorString(rule: CompiledRule): string {
  const message = rule.message?.trim() ?? '';
  return message === '' ? rule.rule.trim() : message;
}

/** The message of a violation: `messageExpression`'s, else `message`, else `failed rule: ...`. */
function violationMessage(rule: CompiledRule, bindings: RuleBindings, budget: CostBudget): string {
  // As the API server's `ruleMessageOrDefault`: the message trimmed, else the rule's trimmed text.
  const fallback =
    rule.message === undefined || rule.message === ''
      ? `failed rule: ${rule.rule.trim()}`
      : rule.message.trim();
  if (rule.messageExpression === undefined) return fallback;
  const program = rule.messageExpression;
  const outcome = budget.run(() => program(bindings));
  if ('exceeded' in outcome) return `${fallback} (messageExpression: ${outcome.exceeded.message})`;
  // The API server trims the value, and falls back on one that is empty, has a line break or is
  // longer than 5 KiB (`evalMessageExpression`).
  const message = typeof outcome.value === 'string' ? outcome.value.trim() : '';
  if (
    message === '' ||
    message.includes('\n') ||
    Buffer.byteLength(message, 'utf8') > MAX_MESSAGE_BYTES
  ) {
    return fallback;
  }
  return message;
}

/** The longest message a `messageExpression` may evaluate to (`MaxEvaluatedMessageExpressionSizeBytes`). */
const MAX_MESSAGE_BYTES = 5 * 1024;

function describe(value: unknown): string {
  if (typeof value === 'bigint') return 'an int';
  if (typeof value === 'number') return 'a double';
  if (typeof value === 'string') return 'a string';
  return 'another type';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export { CostLimitError };
