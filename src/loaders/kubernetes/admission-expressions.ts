/**
 * The CEL expressions of admission control, which the API server compiles when the object is
 * written (`compilation failed: ERROR: <input>:1:9: Syntax error: ...`): a
 * ValidatingAdmissionPolicy's validations (and their message expressions), audit annotations,
 * variables and match conditions, a MutatingAdmissionPolicy's mutations, and a webhook's match
 * conditions. Each expression is parsed in the CEL dialect of the document's Kubernetes version;
 * one that does not parse is reported at its field. Types and names are not checked: the
 * variables these expressions see (`object`, `params`, `request`, `authorizer`, ...) have the
 * types of whatever the policy matches.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { invalidValue } from './go-field-error.js';

/** A CEL expression written in a document, at its path. */
interface WrittenExpression {
  readonly path: readonly (string | number)[];
  readonly source: string;
}

const POLICY_KINDS = new Set([
  'ValidatingAdmissionPolicy',
  'MutatingAdmissionPolicy',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

/** Whether a document of `group`/`kind` may hold admission expressions (then CEL is needed). */
export function holdsAdmissionExpressions(group: string, kind: string): boolean {
  return group === 'admissionregistration.k8s.io' && POLICY_KINDS.has(kind);
}

/**
 * The problems of the admission expressions of a document of `group`/`kind`; `syntaxError`
 * parses one expression in the document's CEL dialect.
 */
export function admissionExpressionProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  syntaxError: (source: string) => string | undefined,
): SchemaProblem[] {
  if (!holdsAdmissionExpressions(group, kind)) return [];
  return expressionsOf(document, kind).flatMap(({ path, source }) => {
    const error = syntaxError(source);
    return error === undefined
      ? []
      : [
          {
            path: jsonPointer(path),
            part: 'value' as const,
            keyword: 'cel-syntax',
            message: invalidValue(source, `compilation failed: ${error}`),
          },
        ];
  });
}

/** The expressions a document writes, by kind. */
function expressionsOf(document: Record<string, unknown>, kind: string): WrittenExpression[] {
  const found: WrittenExpression[] = [];
  /** Each item's `field` of the list at `path` (`spec.validations[*].expression`). */
  const collect = (list: unknown, path: (string | number)[], fields: readonly string[]): void => {
    if (!Array.isArray(list)) return;
    list.forEach((item: unknown, i) => {
      if (!isPlainObject(item)) return;
      for (const field of fields) {
        const source = item[field];
        if (typeof source === 'string' && source !== '') {
          found.push({ path: [...path, i, field], source });
        }
      }
    });
  };
  if (kind === 'ValidatingWebhookConfiguration' || kind === 'MutatingWebhookConfiguration') {
    const hooks = document.webhooks;
    if (Array.isArray(hooks)) {
      hooks.forEach((hook: unknown, i) => {
        if (isPlainObject(hook))
          collect(hook.matchConditions, ['webhooks', i, 'matchConditions'], ['expression']);
      });
    }
    return found;
  }
  const spec = document.spec;
  if (!isPlainObject(spec)) return found;
  collect(spec.matchConditions, ['spec', 'matchConditions'], ['expression']);
  collect(spec.variables, ['spec', 'variables'], ['expression']);
  collect(spec.validations, ['spec', 'validations'], ['expression', 'messageExpression']);
  collect(spec.auditAnnotations, ['spec', 'auditAnnotations'], ['valueExpression']);
  if (Array.isArray(spec.mutations)) {
    spec.mutations.forEach((mutation: unknown, i) => {
      if (!isPlainObject(mutation)) return;
      for (const field of ['applyConfiguration', 'jsonPatch']) {
        const body = mutation[field];
        const source = isPlainObject(body) ? body.expression : undefined;
        if (typeof source === 'string' && source !== '') {
          found.push({ path: ['spec', 'mutations', i, field, 'expression'], source });
        }
      }
    });
  }
  return found;
}
