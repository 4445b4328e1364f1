/**
 * A CEL rule's failure as the API server words it after the field path
 * (apiextensions-apiserver `schema/cel/validation.go`), so that `cosi check` says of a custom
 * resource what `kubectl apply` would:
 *
 * - a false rule is the field error its `reason` names (`fieldErrorForReason`): `Invalid value`
 *   (the default), `Forbidden`, `Required value` with the rule's message, or `Duplicate value`
 *   without it;
 * - an evaluation error is `Invalid value` with cel-go's error and the rule's message.
 *
 * The value it shows changed in Kubernetes 1.35: before, the type of the node that carries the
 * rule (`Invalid value: "object": ...`, `Invalid value: "integer": ...`); from 1.35, a scalar's
 * own value (`Invalid value: 70000: ...`) and nothing for an object or a list
 * (`Invalid value: ...`). An evaluation error shows the type in every release.
 */

import { goValue } from '../kubernetes/go-field-error.js';

/** The first Kubernetes minor whose false rules show the value, not its type. */
const SHOWS_VALUE_SINCE = 35;

/** What the API server knows of the node a rule failed on. */
export interface RuleNode {
  /** The node's schema `type` (`''` when it has none: int-or-string, preserved fields). */
  readonly type: string;
  /** The node's value. */
  readonly value: unknown;
}

/** The field error of a rule that evaluated to false, with `detail` its message. */
export function violationFieldError(
  reason: string,
  detail: string,
  node: RuleNode,
  kubernetesMinor: number,
): string {
  const shown = shownValue(node, kubernetesMinor);
  switch (reason) {
    case 'FieldValueForbidden':
      return `Forbidden: ${detail}`;
    case 'FieldValueRequired':
      return `Required value: ${detail}`;
    case 'FieldValueDuplicate':
      return shown === undefined ? 'Duplicate value' : `Duplicate value: ${shown}`;
    default:
      return shown === undefined
        ? `Invalid value: ${detail}`
        : `Invalid value: ${shown}: ${detail}`;
  }
}

/** The field error of a rule that could not be evaluated, with `detail` cel-go's words. */
export function evaluationFieldError(detail: string, node: RuleNode): string {
  return `Invalid value: ${goValue(node.type)}: ${detail}`;
}

/** The value a false rule's error shows, as Go prints it; `undefined` when it shows none. */
function shownValue(node: RuleNode, kubernetesMinor: number): string | undefined {
  if (kubernetesMinor < SHOWS_VALUE_SINCE) return goValue(node.type);
  if (node.type === 'object' || node.type === 'array') return undefined;
  const { value } = node;
  // A scalar as `%v`/`%q`; anything else (an untyped node's) as JSON, as field errors print it.
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : goValue(value);
}
