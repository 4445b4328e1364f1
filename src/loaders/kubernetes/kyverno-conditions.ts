/**
 * The conditions of a Kyverno rule (its `preconditions`, a `deny`'s `conditions`, a `foreach`'s,
 * an attestation's), as Kyverno checks them when the policy is written (`validateConditions` and
 * `validateRawJSONConditionOperator` of its `pkg/validation/policy`): each has a `key`, a
 * `value` and an `operator` (where Kyverno asks for them), and the operator is one Kyverno has,
 * written as it writes it (`Equals`, not `equals`). `In` and `NotIn` are taken with a warning:
 * Kyverno deprecated them for `AnyIn` / `AllIn` and `AnyNotIn` / `AllNotIn`.
 */

import { isPlainObject } from '../manifest-document.js';
import { didYouMean } from '../did-you-mean.js';
import { invalidValue } from './go-field-error.js';
import type { AddProblem, Path } from './kyverno-match.js';

/** Kyverno's condition operators (`ConditionOperators`). */
const OPERATORS = [
  'Equal',
  'Equals',
  'NotEqual',
  'NotEquals',
  'In',
  'AnyIn',
  'AllIn',
  'NotIn',
  'AnyNotIn',
  'AllNotIn',
  'GreaterThanOrEquals',
  'GreaterThan',
  'LessThanOrEquals',
  'LessThan',
  'DurationGreaterThanOrEquals',
  'DurationGreaterThan',
  'DurationLessThanOrEquals',
  'DurationLessThan',
];
const KNOWN = new Set(OPERATORS);
/** The operators Kyverno deprecated, and what replaces them. */
const DEPRECATED: Readonly<Record<string, string>> = {
  In: 'AllIn or AnyIn',
  NotIn: 'AllNotIn or AnyNotIn',
};

/**
 * Reports the problems of a list of conditions, or of `any` / `all` lists of them; `whole`:
 * each condition must have its key, value and operator (a rule's preconditions, a deny's
 * conditions), else only the operator given is checked.
 */
export function conditionProblems(
  conditions: unknown,
  at: Path,
  whole: boolean,
  add: AddProblem,
): void {
  eachCondition(conditions, at, (condition, here) => {
    const operator = condition.operator;
    if (whole && (condition.key == null || condition.value == null || !operator)) {
      add(here, 'entered value of `key`, `value` or `operator` is missing or misspelled', 'key');
    }
    if (typeof operator !== 'string' || operator === '') return;
    if (!KNOWN.has(operator)) {
      const meant =
        OPERATORS.find((known) => known.toLowerCase() === operator.toLowerCase()) ??
        didYouMean(operator, OPERATORS);
      add(
        [...here, 'operator'],
        invalidValue(
          operator,
          `entered value of \`operator\` is invalid${meant === undefined ? '' : ` (did you mean ${meant}?)`}. valid values: ${OPERATORS.join(', ')}`,
        ),
      );
    } else if (Object.hasOwn(DEPRECATED, operator)) {
      add(
        [...here, 'operator'],
        `Operator ${operator} has been deprecated and will be removed soon. Use these instead: ${DEPRECATED[operator] as string}`,
        'value',
        'warning',
      );
    }
  });
}

/**
 * Calls `visit` with each condition of a list of conditions, or of `any` / `all` lists of them
 * (a rule's preconditions, a deny's conditions), at its path.
 */
export function eachCondition(
  conditions: unknown,
  at: Path,
  visit: (condition: Record<string, unknown>, path: Path) => void,
): void {
  const lists: [unknown, Path][] = Array.isArray(conditions)
    ? [[conditions, at]]
    : isPlainObject(conditions)
      ? [
          [conditions.any, [...at, 'any']],
          [conditions.all, [...at, 'all']],
        ]
      : [];
  for (const [list, path] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((condition: unknown, i) => {
      if (isPlainObject(condition)) visit(condition, [...path, i]);
    });
  }
}

/**
 * The conditions of a rule, where Kyverno checks them: its preconditions and deny conditions
 * (whole), its `foreach`'s preconditions and deny conditions, and its attestations' conditions and
 * image verifications' deny conditions.
 */
export function ruleConditionProblems(
  rule: Record<string, unknown>,
  at: Path,
  add: AddProblem,
): void {
  conditionProblems(rule.preconditions, [...at, 'preconditions'], true, add);
  const validate = rule.validate;
  if (isPlainObject(validate)) {
    if (isPlainObject(validate.deny)) {
      conditionProblems(
        validate.deny.conditions,
        [...at, 'validate', 'deny', 'conditions'],
        true,
        add,
      );
    }
    foreachConditionProblems(validate.foreach, [...at, 'validate', 'foreach'], add, 0);
  }
  const mutate = rule.mutate;
  if (isPlainObject(mutate))
    foreachConditionProblems(mutate.foreach, [...at, 'mutate', 'foreach'], add, 0);
  if (!Array.isArray(rule.verifyImages)) return;
  rule.verifyImages.forEach((verification: unknown, i) => {
    if (!isPlainObject(verification)) return;
    const here = [...at, 'verifyImages', i];
    if (Array.isArray(verification.attestations)) {
      verification.attestations.forEach((attestation: unknown, j) => {
        if (!isPlainObject(attestation) || !Array.isArray(attestation.conditions)) return;
        attestation.conditions.forEach((conditions: unknown, k) =>
          conditionProblems(conditions, [...here, 'attestations', j, 'conditions', k], false, add),
        );
      });
    }
    const check = verification.validate;
    if (isPlainObject(check) && isPlainObject(check.deny)) {
      conditionProblems(
        check.deny.conditions,
        [...here, 'validate', 'deny', 'conditions'],
        true,
        add,
      );
    }
  });
}

/** The preconditions and deny conditions of a `foreach`'s items, nested ones too. */
function foreachConditionProblems(
  foreach: unknown,
  at: Path,
  add: AddProblem,
  depth: number,
): void {
  if (!Array.isArray(foreach) || depth > 8) return;
  foreach.forEach((item: unknown, i) => {
    if (!isPlainObject(item)) return;
    const here = [...at, i];
    conditionProblems(item.preconditions, [...here, 'preconditions'], false, add);
    if (isPlainObject(item.deny)) {
      conditionProblems(item.deny.conditions, [...here, 'deny', 'conditions'], false, add);
    }
    foreachConditionProblems(item.foreach, [...here, 'foreach'], add, depth + 1);
  });
}
