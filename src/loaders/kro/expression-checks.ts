/**
 * The type check of every RGD expression that is not a plain field path (those are
 * `reference-types.ts`'s), when the RGD loads: each whole expression (operators, calls, `.?`,
 * indexing, macros) goes through the CEL compile-time checker (`cel/type-check.ts`) with
 * `schema`, the resource ids and the forEach iterators typed from their schemas
 * (`expression-types.ts`; what a schema leaves open is `dyn`, of which nothing is said). Found:
 *
 * - `rgd-unknown-field`: a field an object type of those schemas does not have;
 * - `rgd-type-mismatch`: what the checker refuses (no overload of an operator for its operands,
 *   a field selected on a number, ...), and a result that does not fit where it goes: a
 *   standalone `${}` against the template field's type in its kind's schema, a non-bool
 *   `includeWhen`/`readyWhen`, a `forEach` that is not a list, a non-string part of a string
 *   template.
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import { DYN, formatCelType, type CelType } from '../cel/cel-types.js';
import { unescapeFieldName } from '../cel/property-escaping.js';
import type { TypeCheck } from '../cel/type-check.js';
import { didYouMean } from '../did-you-mean.js';
import type { FindingCode, SourceLocation } from '../finding.js';
import { celTypeOfSchema, elementOf, listOf, schemaWordOf } from './expression-types.js';
import { lookupField } from './reference-types.js';
import { typeMismatch } from './type-compatibility.js';

/** The type check of a compiled expression, with its variables of the given types. */
export type TypeCheckOf = (variables: ReadonlyMap<string, CelType>) => TypeCheck;

/** A forEach iterator: its name and the type check of its list. */
export interface Iterator {
  readonly name: string;
  readonly list: TypeCheckOf;
}

/** An expression, where it is and where its value goes. */
export interface ExpressionCheck {
  readonly source: string;
  readonly check: TypeCheckOf;
  readonly at: SourceLocation;
  /** The iterators in scope (a forEach resource's template). */
  readonly iterators: readonly Iterator[];
  readonly standalone: boolean;
  /** The resource whose template holds it ('' for the instance status). */
  readonly owner: string;
  /** Its field's path in the owner's template (a resource template only). */
  readonly target?: readonly (string | number)[];
  /** A condition or a forEach list: where, and the OpenAPI type its value must have. */
  readonly context?: string;
  readonly expect?: string;
}

/** The kind of a resource of the RGD; `list` for a forEach resource (its id is a list). */
export interface ResourceKind {
  readonly definition: ResourceDefinition;
  readonly list: boolean;
  readonly external: boolean;
}

/** A problem found, at its expression. */
export interface ExpressionProblem {
  readonly at: SourceLocation;
  readonly code: FindingCode;
  readonly message: string;
}

/**
 * Type-checks `checks` with `schema` of the instance's type and each of the `ids` of its
 * resource's kind (`dyn` when that kind is unknown); every problem, in order.
 */
export function typeExpressions(
  checks: readonly ExpressionCheck[],
  instance: ResourceDefinition,
  kindOf: ReadonlyMap<string, ResourceKind>,
  ids: Iterable<string>,
): ExpressionProblem[] {
  if (checks.length === 0) return [];
  const base = expressionVariables(instance, kindOf, ids);
  /** The variables with a template's iterators, made once per template (they share the list). */
  const withIterators = new Map<readonly Iterator[], Map<string, CelType>>();
  const problems: ExpressionProblem[] = [];
  for (const expression of checks) {
    let variables = base;
    const owner = kindOf.get(expression.owner);
    if (expression.context === 'readyWhen' && owner?.list === true) {
      // A collection's readyWhen reads one item at a time, as `each` (kro builder.go).
      variables = new Map(base);
      variables.set('each', celTypeOfSchema(owner.definition.schema));
    } else if (expression.iterators.length > 0) {
      let scope = withIterators.get(expression.iterators);
      if (scope === undefined) {
        scope = new Map(base);
        for (const { name, list } of expression.iterators) {
          scope.set(name, elementOf(list(base).type));
        }
        withIterators.set(expression.iterators, scope);
      }
      variables = scope;
    }
    const checked = expression.check(variables);
    for (const { code, message } of problemsOf(expression, checked, kindOf)) {
      problems.push({ at: expression.at, code, message });
    }
  }
  return problems;
}

/**
 * The types of the variables every expression of the RGD sees: `schema` of the instance's type,
 * each of the `ids` of its resource's kind (`dyn` when that kind is unknown, a list of it for a
 * forEach resource).
 */
export function expressionVariables(
  instance: ResourceDefinition,
  kindOf: ReadonlyMap<string, ResourceKind>,
  ids: Iterable<string>,
): Map<string, CelType> {
  const variables = new Map<string, CelType>([['schema', celTypeOfSchema(instance.schema)]]);
  for (const id of ids) {
    const kind = kindOf.get(id);
    const type = kind === undefined ? DYN : celTypeOfSchema(kind.definition.schema);
    variables.set(id, kind?.list === true ? listOf(type) : type);
  }
  return variables;
}

const UNDEFINED_FIELD = /^undefined field '/;

/** What is wrong with one checked expression. */
function problemsOf(
  expression: ExpressionCheck,
  checked: TypeCheck,
  kindOf: ReadonlyMap<string, ResourceKind>,
): { code: FindingCode; message: string }[] {
  const expr = `\${${expression.source}}`;
  const problems: { code: FindingCode; message: string }[] = [];
  const reported = new Set<string>();
  for (const { field, known } of checked.unknownFields) {
    if (reported.has(field)) continue;
    reported.add(field);
    const names = known.map(unescapeFieldName);
    const guess = didYouMean(field, names);
    problems.push({
      code: 'rgd-unknown-field',
      message: `${expr} reads the field ${JSON.stringify(field)}, which its schema does not have${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}: its fields there are ${names.join(', ') || 'none'}`,
    });
  }
  for (const error of checked.errors) {
    if (UNDEFINED_FIELD.test(error)) continue;
    problems.push({ code: 'rgd-type-mismatch', message: `${expr} does not type-check: ${error}` });
  }
  if (problems.length > 0) return problems;
  const result = placementProblem(expression, checked.type, kindOf);
  return result === undefined ? [] : [{ code: 'rgd-type-mismatch', message: result }];
}

/**
 * Why a value of `type` does not fit where the expression puts it, as kro's build refuses it:
 * a part of a string template must be a string (kro compiles `"a-${e}"` to `"a-" + (e)`, and
 * CEL has no `+` of a string and anything else); a condition or a forEach list must have its
 * type; a standalone value must fit its template field's type (`type-compatibility.ts`). `dyn`
 * fits everywhere. Undefined when it fits, or when where it goes has no known type.
 */
export function placementProblem(
  expression: ExpressionCheck,
  type: CelType,
  kindOf: ReadonlyMap<string, ResourceKind>,
): string | undefined {
  const expr = `\${${expression.source}}`;
  const typeName = formatCelType(type);
  if (!expression.standalone) {
    return type.kind === 'string' || type.kind === 'dyn'
      ? undefined
      : `${expr} is of type ${typeName}, but a string template ("...\${...}...") needs strings: write \${string(${expression.source})}`;
  }
  if (expression.expect !== undefined) {
    const from = schemaWordOf(type);
    return from === undefined || from === expression.expect
      ? undefined
      : `${expr} is of type ${typeName}, but ${expression.context ?? ''} needs ${expression.expect === 'array' ? 'a list' : `a ${expression.expect}`}`;
  }
  const expected = targetType(expression, kindOf);
  if (expected === undefined) return undefined;
  const problem = typeMismatch(type, expected.type);
  if (problem === undefined) return undefined;
  const detail = problem.startsWith('type kind mismatch') ? '' : ` (${problem})`;
  return `${expr} is of type ${typeName}, but ${expected.where} is of type ${formatCelType(expected.type)}${detail}`;
}

/** The CEL type of the template field an expression is written to, when its schema says it. */
export function targetType(
  expression: Pick<ExpressionCheck, 'owner' | 'target'>,
  kindOf: ReadonlyMap<string, ResourceKind>,
): { type: CelType; where: string } | undefined {
  const owner = kindOf.get(expression.owner);
  if (expression.target === undefined || owner === undefined || owner.external) return undefined;
  const target = lookupField(owner.definition.schema, expression.target);
  if (target.state !== 'found') return undefined;
  return {
    type: celTypeOfSchema(target.schema),
    where: `${expression.target.join('.')} of ${owner.definition.type}`,
  };
}
