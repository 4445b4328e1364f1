/**
 * The CEL expressions of admission control, which the API server compiles when the object is
 * written (`compilation failed: ERROR: <input>:1:9: Syntax error: ...`): a
 * ValidatingAdmissionPolicy's validations (and their message expressions), audit annotations,
 * variables and match conditions, a MutatingAdmissionPolicy's mutations, and a webhook's match
 * conditions. Each expression is parsed in the CEL dialect of the document's Kubernetes version;
 * one that does not parse is reported at its field. So is one that names a variable its field does
 * not declare (`undeclared reference to 'objec' (in container '')`), as the API server declares
 * them (`pkg/apis/admissionregistration/validation`): `object`, `oldObject`, `request` and
 * `namespaceObject` everywhere; `authorizer` but in a message expression; `params` in a
 * ValidatingAdmissionPolicy with a `paramKind`; `variables` in one with variables, but in its
 * match conditions. A MutatingAdmissionPolicy's are parsed only, and so are Kyverno's policies'
 * (a CRD's kinds, modelled on these). Types are not checked: `object` and `params` have the types
 * of whatever the policy matches.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { invalidValue } from './go-field-error.js';

/** A CEL expression written in a document, at its path. */
export interface WrittenExpression {
  readonly path: readonly (string | number)[];
  readonly source: string;
  /** The variables it may name; `undefined`: they are not checked. */
  readonly declared?: ReadonlySet<string>;
  /** The types it may have (cel-go's names), when its variables are checked. */
  readonly result?: readonly string[];
}

/** How an expression is checked: the variables it may name, and the type it must have. */
export type Checked = Pick<WrittenExpression, 'declared' | 'result'>;

/** The types an expression may have, as the API server's expression kinds say (`ReturnTypes`). */
export const BOOL = ['bool'];
export const STRING = ['string'];
const STRING_OR_NULL = ['string', 'null_type'];

/** The variables every admission expression sees. */
export const ALWAYS = ['object', 'oldObject', 'request', 'namespaceObject'];

const POLICY_KINDS = new Set([
  'ValidatingAdmissionPolicy',
  'MutatingAdmissionPolicy',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

/**
 * Kyverno's CEL policies (`ValidatingPolicy`, `MutatingPolicy`, ...), modelled on the admission
 * policies, and the CEL of its older ones: their expressions are parsed only, as the variables
 * and libraries Kyverno declares (`resource`, `http`, `image`, ...) differ by kind and release.
 */
const KYVERNO_POLICIES = 'policies.kyverno.io';

/** Kyverno's older policies, whose rules may validate in CEL (`validate.cel`, `celPreconditions`). */
const KYVERNO_RULE_POLICIES = new Set(['ClusterPolicy', 'Policy']);

/** Whether a document is a Kyverno policy whose expressions are parsed. */
function isKyvernoPolicy(group: string, kind: string): boolean {
  return group === KYVERNO_POLICIES || (group === 'kyverno.io' && KYVERNO_RULE_POLICIES.has(kind));
}

/** The keys of a Kyverno CEL policy whose strings are expressions. */
const EXPRESSION_KEYS = new Set(['expression', 'messageExpression', 'valueExpression']);

/** Whether a document of `group`/`kind` may hold admission expressions (then CEL is needed). */
export function holdsAdmissionExpressions(group: string, kind: string): boolean {
  return (
    (group === 'admissionregistration.k8s.io' && POLICY_KINDS.has(kind)) ||
    isKyvernoPolicy(group, kind)
  );
}

/** How an admission expression is compiled, in the document's CEL dialect (`CelRules`). */
export interface AdmissionCel {
  /** Why an expression does not parse. */
  syntaxError(source: string): string | undefined;
  /**
   * Why it does not compile, in the API server's words: it does not parse, names a variable not
   * `declared`, or is sure not to be a `result`.
   */
  compileError(
    source: string,
    declared: ReadonlySet<string>,
    result?: readonly string[],
  ): string | undefined;
}

/**
 * Admission CEL in the dialect `rules` gives, asked for only when an expression is compiled (the
 * rule engine loads at its first use).
 */
export function lazyAdmissionCel(rules: () => AdmissionCel): AdmissionCel {
  return {
    syntaxError: (source) => rules().syntaxError(source),
    compileError: (source, declared, result) => rules().compileError(source, declared, result),
  };
}

/** The problems of the admission expressions of a document of `group`/`kind`. */
export function admissionExpressionProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  cel: AdmissionCel,
): SchemaProblem[] {
  if (!holdsAdmissionExpressions(group, kind)) return [];
  const expressions = isKyvernoPolicy(group, kind)
    ? namedExpressions(document.spec, ['spec'])
    : expressionsOf(document, kind);
  return expressionProblems(expressions, cel);
}

/**
 * The problems of written expressions, in the API server's words: one that does not parse, or
 * (when its variables are checked) names one not declared or cannot have its type.
 */
export function expressionProblems(
  expressions: readonly WrittenExpression[],
  cel: AdmissionCel,
): SchemaProblem[] {
  return expressions.flatMap(({ path, source, declared, result }) => {
    const syntax = declared === undefined ? cel.syntaxError(source) : undefined;
    const detail =
      declared === undefined
        ? syntax && `compilation failed: ${syntax}`
        : cel.compileError(source, declared, result);
    return detail === undefined
      ? []
      : [
          {
            path: jsonPointer(path),
            part: 'value' as const,
            keyword: 'cel-syntax',
            message: invalidValue(source, detail),
          },
        ];
  });
}

/**
 * Each item's `field` of the list at `path` (`spec.validations[*].expression`), checked as its
 * field says (parsed only when that is undefined).
 */
export function listExpressions(
  list: unknown,
  path: readonly (string | number)[],
  fields: Readonly<Record<string, Checked | undefined>>,
): WrittenExpression[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown, i) => {
    if (!isPlainObject(item)) return [];
    return Object.entries(fields).flatMap(([field, checked]) => {
      const source = item[field];
      return typeof source === 'string' && source !== ''
        ? [{ path: [...path, i, field], source, ...checked }]
        : [];
    });
  });
}

/** The expressions a document writes, by kind. */
function expressionsOf(document: Record<string, unknown>, kind: string): WrittenExpression[] {
  const found: WrittenExpression[] = [];
  /**
   * Each item's `field` of the list at `path` (`spec.validations[*].expression`), which may name
   * the variables `declared` (any when undefined).
   */
  const collect = (
    list: unknown,
    path: (string | number)[],
    fields: Readonly<Record<string, Checked | undefined>>,
  ): void => {
    // A blank one is the API server's `Required value` (`match-conditions.ts`, `admission-policies.ts`).
    found.push(...listExpressions(list, path, fields).filter(({ source }) => source.trim() !== ''));
  };
  const sees = (...names: (string | false)[]): ReadonlySet<string> =>
    new Set([...ALWAYS, ...names.filter((name): name is string => name !== false)]);
  if (kind === 'ValidatingWebhookConfiguration' || kind === 'MutatingWebhookConfiguration') {
    const hooks = document.webhooks;
    if (Array.isArray(hooks)) {
      const expression = { expression: { declared: sees('authorizer'), result: BOOL } };
      hooks.forEach((hook: unknown, i) => {
        if (isPlainObject(hook))
          collect(hook.matchConditions, ['webhooks', i, 'matchConditions'], expression);
      });
    }
    return found;
  }
  const spec = document.spec;
  if (!isPlainObject(spec)) return found;
  // A MutatingAdmissionPolicy's expressions also name its mutation types: parsed only.
  const checked = kind === 'ValidatingAdmissionPolicy';
  const params = spec.paramKind !== undefined && spec.paramKind !== null && 'params';
  const variables = Array.isArray(spec.variables) && spec.variables.length > 0 && 'variables';
  const full = checked ? { declared: sees('authorizer', params, variables) } : undefined;
  collect(spec.matchConditions, ['spec', 'matchConditions'], {
    expression: checked ? { declared: sees('authorizer', params), result: BOOL } : undefined,
  });
  collect(spec.variables, ['spec', 'variables'], { expression: full });
  collect(spec.validations, ['spec', 'validations'], {
    expression: full && { ...full, result: BOOL },
    messageExpression: checked ? { declared: sees(params, variables), result: STRING } : undefined,
  });
  collect(spec.auditAnnotations, ['spec', 'auditAnnotations'], {
    valueExpression: full && { ...full, result: STRING_OR_NULL },
  });
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

/** The strings under an expression's key anywhere in `value` (a Kyverno policy's `spec`), parsed only. */
function namedExpressions(
  value: unknown,
  path: (string | number)[],
  depth = 0,
): WrittenExpression[] {
  if (depth > 32) return [];
  if (Array.isArray(value)) {
    return value.flatMap((item: unknown, i) => namedExpressions(item, [...path, i], depth + 1));
  }
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    EXPRESSION_KEYS.has(key) && typeof child === 'string'
      ? child === ''
        ? []
        : [{ path: [...path, key], source: child }]
      : namedExpressions(child, [...path, key], depth + 1),
  );
}
