/**
 * The fields of a Kyverno `ClusterPolicy`'s or `Policy`'s rule that Kyverno checks when the policy
 * is written, beside its variables (`kyverno-variables.ts`; `validateRuleContext` and
 * `validateConditions` of its `pkg/validation/policy`):
 *
 * - a context entry has a name, not one of Kyverno's own variables, and one source (a config map
 *   with its name and namespace, an API call, a global reference with its name, an image registry
 *   with its reference, or a variable); the `jmesPath` of any of them parses (unless it holds a
 *   variable: what one substitutes is not known before); a variable has a `value` or a
 *   `jmesPath`, and a `default` only beside a `jmesPath`; a CEL validation's rule has no context;
 * - a precondition or deny condition on `{{ request.operation }}` compares it with an operation
 *   (`CREATE`, `UPDATE`, `DELETE`, `CONNECT`), unless its one value is a variable.
 */

import { isPlainObject } from '../manifest-document.js';
import { kyvernoJmespathError } from './kyverno-jmespath-loader.js';
import { eachCondition } from './kyverno-conditions.js';

type Path = readonly (string | number)[];

/** Reports a problem at a place: of a value (said as an invalid value), or of the field. */
export type Report = (
  path: Path,
  part: 'key' | 'value',
  value: string | undefined,
  detail: string,
) => void;

/** Whether a string holds a variable (Kyverno's, as `kyverno-variables.ts` finds them). */
const HAS_VARIABLE = /(^|[^\\])\{\{(?:\{[^{}]*\}|[^{}])*\}\}/;

/** Reports the problems of a rule's context entries and its conditions on the operation. */
export function ruleFieldProblems(rule: Record<string, unknown>, at: Path, report: Report): void {
  contextEntryProblems(rule.context, [...at, 'context'], report);
  if (
    Array.isArray(rule.context) &&
    rule.context.length > 0 &&
    isPlainObject(rule.validate) &&
    rule.validate.cel != null
  ) {
    report(
      [...at, 'context'],
      'key',
      undefined,
      'context variables are not supported for CEL expressions in validate rules (a CEL validation declares its own variables: validate.cel.variables)',
    );
  }
  operationConditionProblems(rule.preconditions, [...at, 'preconditions'], report);
  if (isPlainObject(rule.validate) && isPlainObject(rule.validate.deny)) {
    const deny = rule.validate.deny;
    operationConditionProblems(deny.conditions, [...at, 'validate', 'deny', 'conditions'], report);
  }
}

/** What a request's operation may be. */
const OPERATIONS = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

/**
 * The conditions of a rule's preconditions or deny (`any`, `all`, or a list of them) on
 * `{{ request.operation }}`: each value is an operation, in capitals, as Kyverno checks them; a
 * value that is a variable is not known before a request.
 */
function operationConditionProblems(conditions: unknown, at: Path, report: Report): void {
  eachCondition(conditions, at, (condition, here) => {
    if (typeof condition.key !== 'string') return;
    if (condition.key.replaceAll(' ', '') !== '{{request.operation}}') return;
    const value = condition.value;
    const values: [unknown, Path][] = Array.isArray(value)
      ? value.map((item: unknown, j) => [item, [...here, 'value', j]])
      : [[value, [...here, 'value']]];
    for (const [operation, place] of values) {
      if (typeof operation !== 'string' && !Array.isArray(value)) continue;
      if (typeof operation === 'string') {
        if (OPERATIONS.has(operation)) continue;
        if (!Array.isArray(value) && /^\{\{.*\}\}$/s.test(operation)) continue;
      }
      report(
        place,
        'value',
        typeof operation === 'string' ? operation : JSON.stringify(operation),
        `Kyverno refuses the policy: a request's operation is one of CREATE, UPDATE, DELETE or CONNECT${typeof operation === 'string' && OPERATIONS.has(operation.toUpperCase()) ? ` (${operation.toUpperCase()}, in capitals)` : ''}`,
      );
    }
  });
}

/** Where a context entry's value comes from: one of these. */
const SOURCES = ['configMap', 'apiCall', 'globalReference', 'imageRegistry', 'variable'];

/**
 * What a context entry's source needs (`validateConfigMap`, `validateAPICall`,
 * `validateGlobalReference`, `validateImageRegistry`): a config map's name and namespace, a
 * global reference's name, an image registry's reference; no URL path beside a service.
 */
function requiredSourceFields(entry: Record<string, unknown>, at: Path, report: Report): void {
  const required: [string, string, string][] = [
    ['configMap', 'name', 'a name is required for configMap context entry'],
    ['configMap', 'namespace', 'a namespace is required for configMap context entry'],
    ['globalReference', 'name', 'a name is required for globalReference context entry'],
    ['imageRegistry', 'reference', 'a ref is required for imageRegistry context entry'],
  ];
  for (const [source, field, detail] of required) {
    const given = entry[source];
    if (!isPlainObject(given)) continue;
    if (typeof given[field] !== 'string' || given[field] === '') {
      report([...at, source, field], 'key', undefined, detail);
    }
  }
  const apiCall = entry.apiCall;
  if (isPlainObject(apiCall) && typeof apiCall.urlPath === 'string' && apiCall.urlPath !== '') {
    if (apiCall.service != null) {
      report(
        [...at, 'apiCall', 'urlPath'],
        'key',
        undefined,
        'a URLPath cannot be used for service API calls',
      );
    }
  }
}

/** The names Kyverno declares itself, which no context entry may take (or start with, dotted). */
const PREDEFINED = [
  'images',
  'request',
  'serviceAccountName',
  'serviceAccountNamespace',
  'element',
  'elementIndex',
];

/**
 * A rule's context entries, as Kyverno checks them (`validateRuleContext`): a name that is not
 * one of its own variables; one source, with what it needs; the JMESPath of any source, when it
 * holds no variable (what one substitutes is not known before); a variable with a value or a
 * JMESPath, and a default only beside a JMESPath.
 */
function contextEntryProblems(entries: unknown, at: Path, report: Report): void {
  if (!Array.isArray(entries)) return;
  entries.forEach((entry: unknown, i) => {
    if (!isPlainObject(entry)) return;
    const name = entry.name;
    if (typeof name !== 'string' || name === '') {
      report([...at, i, 'name'], 'key', undefined, 'a name is required for context entries');
    }
    const sources = SOURCES.filter((source) => entry[source] != null);
    if (sources.length !== 1) {
      report(
        [...at, i],
        'key',
        undefined,
        `exactly one of configMap or apiCall or imageRegistry or variable is required for context entries${sources.length > 1 ? ` (it has ${sources.join(', ')})` : ''}`,
      );
    }
    requiredSourceFields(entry, [...at, i], report);
    const taken =
      typeof name === 'string'
        ? PREDEFINED.find((own) => name === own || name.startsWith(`${own}.`))
        : undefined;
    if (taken !== undefined) {
      report(
        [...at, i, 'name'],
        'value',
        name as string,
        `Kyverno refuses a context entry named as its own variable ${taken}: rename it`,
      );
    }
    for (const source of ['apiCall', 'variable', 'globalReference', 'imageRegistry']) {
      const given = entry[source];
      if (!isPlainObject(given)) continue;
      const query = given.jmesPath;
      if (typeof query === 'string' && query !== '' && !HAS_VARIABLE.test(query)) {
        const syntax = kyvernoJmespathError(query);
        if (syntax !== undefined) {
          report([...at, i, source, 'jmesPath'], 'value', query, syntax);
        }
      }
      if (source !== 'variable') continue;
      const hasQuery = typeof query === 'string' && query !== '';
      if (given.value == null && !hasQuery) {
        report(
          [...at, i, source],
          'key',
          undefined,
          'Kyverno refuses a variable with neither a value nor a jmesPath: give one',
        );
      } else if (given.default != null && !hasQuery) {
        report(
          [...at, i, source, 'default'],
          'key',
          undefined,
          'Kyverno refuses a default for a variable without a jmesPath (the default is what the jmesPath finds nothing for)',
        );
      }
    }
  });
}
