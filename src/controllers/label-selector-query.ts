/**
 * A Kubernetes `metav1.LabelSelector` (`matchLabels`, `matchExpressions`) as the engine's label
 * query, with apimachinery's `LabelSelectorAsSelector` rules: the terms all hold; `{}` (or no
 * selector) selects everything; `In` and `NotIn` need values, `Exists` and `DoesNotExist` take
 * none; `NotIn` and `DoesNotExist` select a resource without the label.
 */

import {
  labelEqual,
  labelExists,
  labelIn,
  labelQuery,
  notMatches,
  type LabelQuery,
  type LabelTerm,
} from '../engine/resource/label-query.js';
import { isRecord } from '../engine/resource/plain-data.js';

/** The query of `selector`, or what is wrong with it (in apimachinery's words). */
export function labelSelectorQuery(selector: unknown): LabelQuery | { readonly error: string } {
  if (selector === undefined || selector === null) return labelQuery();
  if (!isRecord(selector))
    return { error: `a label selector is a mapping, not ${kindOf(selector)}` };
  const terms: LabelTerm[] = [];
  const { matchLabels, matchExpressions } = selector;
  if (matchLabels !== undefined && matchLabels !== null) {
    if (!isRecord(matchLabels))
      return { error: `matchLabels is a mapping, not ${kindOf(matchLabels)}` };
    for (const [key, value] of Object.entries(matchLabels)) {
      if (typeof value !== 'string') {
        return { error: `matchLabels.${key}: a label value is a string, not ${kindOf(value)}` };
      }
      terms.push(labelEqual(key, value));
    }
  }
  if (matchExpressions !== undefined && matchExpressions !== null) {
    if (!Array.isArray(matchExpressions)) {
      return { error: `matchExpressions is a list, not ${kindOf(matchExpressions)}` };
    }
    for (const [i, requirement] of matchExpressions.entries()) {
      const term = requirementTerm(requirement);
      if ('error' in term) return { error: `matchExpressions[${i}]: ${term.error}` };
      terms.push(term);
    }
  }
  return labelQuery(...terms);
}

function requirementTerm(requirement: unknown): LabelTerm | { readonly error: string } {
  if (!isRecord(requirement))
    return { error: `a requirement is a mapping, not ${kindOf(requirement)}` };
  const { key, operator } = requirement;
  if (typeof key !== 'string' || key === '') return { error: 'key is required' };
  const values = requirement.values ?? [];
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
    return { error: 'values is a list of strings' };
  }
  const strings = values as string[];
  switch (operator) {
    case 'In':
    case 'NotIn': {
      if (strings.length === 0) {
        return { error: "values: for 'in', 'notin' operators, values set can't be empty" };
      }
      const term = labelIn(key, strings);
      return operator === 'In' ? term : notMatches(term);
    }
    case 'Exists':
    case 'DoesNotExist': {
      if (strings.length > 0) {
        return { error: 'values: values set must be empty for exists and does not exist' };
      }
      const term = labelExists(key);
      return operator === 'Exists' ? term : notMatches(term);
    }
    default:
      return {
        error: `${JSON.stringify(operator ?? '')} is not a valid label selector operator (In, NotIn, Exists, DoesNotExist)`,
      };
  }
}

function kindOf(value: unknown): string {
  return Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;
}
