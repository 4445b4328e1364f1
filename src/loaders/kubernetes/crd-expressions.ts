/**
 * The CEL expressions a stored CRD already has, as the API server collects them on an update
 * (`findPreexistingExpressions`): every `x-kubernetes-validations` rule and message expression
 * at any node of any version's schema. A rule of the updated CRD with the same text, wherever it
 * is now, compiles with the libraries of the API server's own release rather than those of the
 * release before it (`cel/new-rules.ts`).
 */

import type { PreexistingExpressions } from '../cel/new-rules.js';
import { isPlainObject } from '../manifest-document.js';

/** Keywords holding one schema, a list of schemas, or schemas by name (`SchemaHas` follows each). */
const ONE = ['items', 'not', 'additionalProperties', 'additionalItems'];
const LIST = ['items', 'allOf', 'anyOf', 'oneOf'];
const BY_NAME = ['properties', 'patternProperties', 'dependencies', 'definitions'];

/** The expressions of a stored CRD document. */
export function preexistingExpressions(crd: unknown): PreexistingExpressions {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  const visit = (node: unknown): void => {
    if (!isPlainObject(node)) return;
    const validations = node['x-kubernetes-validations'];
    if (Array.isArray(validations)) {
      for (const validation of validations) {
        if (!isPlainObject(validation)) continue;
        if (typeof validation.rule === 'string') rules.add(validation.rule);
        const message = validation.messageExpression;
        if (typeof message === 'string' && message.length > 0) messageExpressions.add(message);
      }
    }
    for (const keyword of ONE) visit(node[keyword]);
    for (const keyword of LIST) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach(visit);
    }
    for (const keyword of BY_NAME) {
      const named = node[keyword];
      if (isPlainObject(named)) Object.values(named).forEach(visit);
    }
  };
  const spec = isPlainObject(crd) && isPlainObject(crd.spec) ? crd.spec : {};
  // v1beta1's one schema for every version, then each version's.
  if (isPlainObject(spec.validation)) visit(spec.validation.openAPIV3Schema);
  for (const version of Array.isArray(spec.versions) ? (spec.versions as unknown[]) : []) {
    if (isPlainObject(version) && isPlainObject(version.schema)) {
      visit(version.schema.openAPIV3Schema);
    }
  }
  return { rules, messageExpressions };
}
