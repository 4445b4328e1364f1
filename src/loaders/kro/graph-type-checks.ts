/**
 * The type checks of an RGD's expressions, once every resource's kind is known: the plain field
 * paths against the schemas they read (`field-path-checks.ts`), the string templates against
 * their fields, every other expression as a whole (`expression-checks.ts`), and the custom
 * conditions of the status (`condition-rules.ts`).
 */

import { formatCelType, primitive } from '../cel/cel-types.js';
import { conditionProblems } from './condition-rules.js';
import { expressionVariables, targetType, typeExpressions } from './expression-checks.js';
import { checkFieldTypes } from './field-path-checks.js';
import { fail, failAt, type GraphCompilation } from './graph-compilation.js';
import { typeMismatch } from './type-compatibility.js';

const STRING = primitive('string');

/** Refuses every expression whose type does not fit, in the order of the checks above. */
export function checkExpressionTypes(c: GraphCompilation): void {
  const { definition, kindOf, known } = c;
  for (const check of c.fieldChecks) {
    const problem = checkFieldTypes(check, definition, kindOf);
    if (problem === undefined) continue;
    failAt(c, check.at, problem.code, problem.message);
  }

  // kro builds a string template as a concatenation of strings, whose value must fit the field.
  for (const template of c.stringTemplates) {
    const expected = targetType(template, kindOf);
    if (expected === undefined || typeMismatch(STRING, expected.type) === undefined) continue;
    fail(
      c,
      'rgd-type-mismatch',
      template.where,
      `${JSON.stringify(template.text)} is a string template, but ${expected.where} is of type ${formatCelType(expected.type)}`,
    );
  }

  for (const finding of typeExpressions(c.expressionChecks, definition, kindOf, known)) {
    failAt(c, finding.at, finding.code, finding.message);
  }

  if (c.conditionEntries.length > 0) {
    const types = expressionVariables(definition, kindOf, known);
    const entries = c.conditionEntries.map((entry) => ({
      ...entry,
      type: entry.check(types).type,
    }));
    for (const problem of conditionProblems(entries)) {
      failAt(c, problem.at, 'rgd-bad-expression', problem.message);
    }
  }
}
