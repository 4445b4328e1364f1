/**
 * The estimated costs of a schema's rules as the API server budgets them: each rule's estimate
 * times how many times it may run for one object (from the `maxItems` and `maxProperties`
 * above it), each over the limit of one expression a problem, and all of them together over
 * the limit of one CRD a problem at the schema and at the costliest.
 */

import { jsonPointer } from '../json-pointer.js';
import type { SchemaNode } from '../schema-node.js';
import {
  costExceededMessage,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
} from './cost-estimate.js';
import type { CompiledRule, RuleProblem } from './compiled-rule.js';

/** A rule's (and its message expression's) estimated cost, and where it is. */
export interface ObservedCost {
  readonly path: string;
  readonly cost: number;
}

/**
 * Records the estimated costs of a compiled rule at `at` that may run `times` times for one
 * object, as the API server counts them: the rule's estimate times `times`, its message
 * expression's as it is. The problems of those over the limit of one expression.
 */
export function observeCosts(
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
export function maxElements(node: SchemaNode): number | undefined {
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
export function schemaCostProblems(costs: readonly ObservedCost[]): RuleProblem[] {
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
