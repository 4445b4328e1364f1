/**
 * What the rule compiler (`rule-compiler.ts`) gives: a schema's compiled rules by node, each
 * rule planned with its message, reason, field path and static cost, and the problems of those
 * that do not compile, at their place in the schema.
 */

import type { CelResult } from '@bufbuild/cel';
import type { SchemaNode } from '../schema-node.js';

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
