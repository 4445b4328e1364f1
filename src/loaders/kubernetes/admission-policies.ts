/**
 * What the API server checks of a ValidatingAdmissionPolicy and a ValidatingAdmissionPolicyBinding
 * in Go (k8s.io/kubernetes `pkg/apis/admissionregistration/validation`:
 * `validateValidatingAdmissionPolicySpec`, `validateValidatingAdmissionPolicyBindingSpec`), on
 * create, beyond the closed sets and required fields its OpenAPI carries:
 *
 * - a policy's `paramKind` names a group-version and a kind; its `matchConstraints` are there and
 *   have resource rules (they give the expressions their types); its match conditions are named
 *   (`match-conditions.ts`); its variables have CEL identifiers for names; it validates or audits
 *   something; a validation's expression is not blank, its message is one line and its reason one
 *   the API server answers with; an audit annotation's key makes a qualified name after the
 *   policy's name (`my-policy/key`), and no two have one key;
 * - a binding names its policy (a DNS subdomain), takes at least one action and not both `Deny`
 *   and `Warn`, and refers to its parameters by name or by selector, saying what to do when they
 *   are not found (`parameterNotFoundAction`);
 * - both match resources by rules as a webhook does (`webhook-configurations.ts`), with
 *   well-formed label selectors.
 *
 * A MutatingAdmissionPolicy's match conditions are named as a validating policy's. The
 * expressions themselves are compiled by `admission-expressions.ts`. What the API server
 * defaults is not asked for: a policy's `failurePolicy`, a match's `matchPolicy` and selectors.
 * Each problem at its field, in the API server's words.
 */

import { CEL_RESERVED_WORDS } from '../cel/property-escaping.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  duplicateValue,
  forbiddenValue,
  goQuote,
  invalidValue,
  requiredValue,
  unsupportedValue,
} from './go-field-error.js';
import {
  dns1035LabelProblems,
  dns1123SubdomainProblems,
  labelSelectorProblems,
  pathSegmentProblems,
  qualifiedNameProblems,
  type Add,
} from './label-syntax.js';
import { matchConditionProblems } from './match-conditions.js';
import { ruleWithOperationsProblems } from './webhook-configurations.js';

const GROUP = 'admissionregistration.k8s.io';
const POLICY_KINDS = new Set([
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
]);
/** `supportedValidationPolicyReason`, sorted as Go lists a set. */
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const NOT_FOUND_ACTIONS = ['Deny', 'Allow'];
const MAX_VALUE_EXPRESSION_BYTES = 5 * 1024;
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const MUTUALLY_EXCLUSIVE = 'name and selector are mutually exclusive';

/** The problems of a built-in document of `group`/`kind` (an admission policy's or binding's). */
export function admissionPolicyProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== GROUP || !POLICY_KINDS.has(kind)) return [];
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(['spec', ...path]), part: 'value', keyword, message });
  };
  if (kind === 'MutatingAdmissionPolicy') {
    // Only its match conditions, named as a validating policy's (`validateMatchConditions`).
    matchConditionProblems(spec.matchConditions, at(add, 'matchConditions'));
  } else if (kind === 'ValidatingAdmissionPolicy') {
    const metadata = document.metadata;
    const name = isPlainObject(metadata) ? metadata.name : undefined;
    policySpecProblems(spec, typeof name === 'string' ? name : '', add);
  } else {
    bindingSpecProblems(spec, add);
  }
  return problems;
}

/** `validateValidatingAdmissionPolicySpec`. */
function policySpecProblems(spec: Record<string, unknown>, name: string, add: Add): void {
  if (isPlainObject(spec.paramKind)) paramKindProblems(spec.paramKind, at(add, 'paramKind'));
  const constraints = spec.matchConstraints;
  if (constraints === undefined || constraints === null) {
    add(['matchConstraints'], 'required', requiredValue());
  } else if (isPlainObject(constraints)) {
    matchResourcesProblems(constraints, at(add, 'matchConstraints'));
    // At least one rule gives the expressions their types.
    if (!Array.isArray(constraints.resourceRules) || constraints.resourceRules.length === 0) {
      add(['matchConstraints', 'resourceRules'], 'required', requiredValue());
    }
  }
  matchConditionProblems(spec.matchConditions, at(add, 'matchConditions'));
  eachItem(spec.variables, at(add, 'variables'), variableProblems);
  const validations = Array.isArray(spec.validations) ? spec.validations : [];
  const annotations = Array.isArray(spec.auditAnnotations) ? spec.auditAnnotations : [];
  if (validations.length === 0 && annotations.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    add(['validations'], 'required', requiredValue(detail));
    add(['auditAnnotations'], 'required', requiredValue(detail));
    return;
  }
  eachItem(validations, at(add, 'validations'), validationProblems);
  const keys = new Set<string>();
  eachItem(annotations, at(add, 'auditAnnotations'), (annotation, addHere) => {
    auditAnnotationProblems(annotation, name, addHere);
    const key = annotation.key;
    if (typeof key !== 'string') return;
    if (keys.has(key)) addHere(['key'], 'duplicate', duplicateValue(key));
    keys.add(key);
  });
}

/** `validateParamKind`: `apiVersion` a group-version with a version, `kind` a (mixed-case) DNS-1035 label. */
function paramKindProblems(kind: Record<string, unknown>, add: Add): void {
  const apiVersion = kind.apiVersion;
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') {
    add(['apiVersion'], 'required', requiredValue());
  } else if (typeof apiVersion === 'string') {
    const slashes = apiVersion.split('/').length - 1;
    if (slashes > 1) {
      add(
        ['apiVersion'],
        'param-kind',
        invalidValue(apiVersion, `unexpected GroupVersion string: ${apiVersion}`),
      );
    } else {
      const [group, version] =
        apiVersion === '/'
          ? ['', '']
          : slashes === 0
            ? ['', apiVersion]
            : [
                apiVersion.slice(0, apiVersion.indexOf('/')),
                apiVersion.slice(apiVersion.indexOf('/') + 1),
              ];
      const groupProblems = group === '' ? [] : dns1123SubdomainProblems(group);
      if (groupProblems.length > 0) {
        add(['apiVersion'], 'param-kind', invalidValue(group, groupProblems.join(',')));
      }
      if (version === '') {
        add(['apiVersion'], 'param-kind', invalidValue(apiVersion, 'version must be specified'));
      } else {
        const versionProblems = dns1035LabelProblems(version);
        if (versionProblems.length > 0) {
          add(['apiVersion'], 'param-kind', invalidValue(version, versionProblems.join(',')));
        }
      }
    }
  }
  const kindName = kind.kind;
  if (kindName === undefined || kindName === null || kindName === '') {
    add(['kind'], 'required', requiredValue());
  } else if (typeof kindName === 'string') {
    const kindProblems = dns1035LabelProblems(kindName.toLowerCase());
    if (kindProblems.length > 0) {
      add(
        ['kind'],
        'param-kind',
        invalidValue(
          kindName,
          `may have mixed case, but should otherwise match: ${kindProblems.join(',')}`,
        ),
      );
    }
  }
}

/** `validateMatchResources` (what the API server defaults left out) and its rules. */
function matchResourcesProblems(match: Record<string, unknown>, add: Add): void {
  for (const selector of ['namespaceSelector', 'objectSelector']) {
    if (isPlainObject(match[selector])) labelSelectorProblems(match[selector], at(add, selector));
  }
  for (const list of ['resourceRules', 'excludeResourceRules']) {
    eachItem(match[list], at(add, list), namedRuleProblems);
  }
}

/** `validateNamedRuleWithOperations`: resource names path segments, none twice, and the rule. */
function namedRuleProblems(rule: Record<string, unknown>, add: Add): void {
  if (Array.isArray(rule.resourceNames)) {
    const seen = new Set<string>();
    rule.resourceNames.forEach((name: unknown, i) => {
      if (typeof name !== 'string') return;
      for (const message of pathSegmentProblems(name)) {
        add(['resourceNames', i], 'resource-name', invalidValue(name, message));
      }
      if (seen.has(name)) add(['resourceNames', i], 'duplicate', duplicateValue(name));
      seen.add(name);
    });
  }
  ruleWithOperationsProblems(rule, add);
}

/** `validateVariable`: a CEL identifier for a name and an expression (compiled elsewhere). */
function variableProblems(variable: Record<string, unknown>, add: Add): void {
  const { name, expression } = variable;
  if (typeof name === 'string') {
    if (name.trim() === '') {
      add(['name'], 'required', requiredValue('name is not specified'));
    } else if (!CEL_IDENTIFIER.test(name) || CEL_RESERVED_WORDS.has(name)) {
      add(['name'], 'variable-name', invalidValue(name, 'name is not a valid CEL identifier'));
    }
  }
  if (typeof expression === 'string' && expression.trim() === '') {
    add(['expression'], 'required', requiredValue('expression is not specified'));
  }
}

/** `validateValidation`, but for the compilation of its expressions. */
function validationProblems(validation: Record<string, unknown>, add: Add): void {
  const { expression, message, messageExpression, reason } = validation;
  if (typeof expression === 'string' && expression.trim() === '') {
    add(['expression'], 'required', requiredValue('expression is not specified'));
  }
  if (
    typeof messageExpression === 'string' &&
    messageExpression !== '' &&
    messageExpression.trim() === ''
  ) {
    add(
      ['messageExpression'],
      'message-expression',
      invalidValue(messageExpression, 'must be non-empty if specified'),
    );
  }
  if (typeof message === 'string' && message !== '') {
    const trimmed = message.trim();
    if (trimmed === '') {
      add(['message'], 'message', invalidValue(message, 'message must be non-empty if specified'));
    } else if (/[\n\r]/.test(trimmed)) {
      add(['message'], 'message', invalidValue(message, 'message must not contain line breaks'));
    }
  }
  if (typeof reason === 'string' && !REASONS.includes(reason)) {
    add(['reason'], 'reason', unsupportedValue(reason, REASONS));
  }
}

/**
 * `validateAuditAnnotation`: the key makes a qualified name after the policy's name, the value
 * expression is not blank nor longer than 5 KiB.
 */
function auditAnnotationProblems(
  annotation: Record<string, unknown>,
  policy: string,
  add: Add,
): void {
  const { key, valueExpression } = annotation;
  if (typeof key === 'string') {
    if (policy === '') {
      add(['key'], 'audit-key', invalidValue(key, 'requires metadata.name be non-empty'));
    } else {
      const qualified = `${policy}/${key}`;
      for (const message of qualifiedNameProblems(qualified)) {
        add(['key'], 'audit-key', invalidValue(qualified, message));
      }
    }
  }
  if (typeof valueExpression !== 'string') return;
  const trimmed = valueExpression.trim();
  if (trimmed === '') {
    add(['valueExpression'], 'required', requiredValue('valueExpression is not specified'));
  } else if (new TextEncoder().encode(trimmed).length > MAX_VALUE_EXPRESSION_BYTES) {
    add(
      ['valueExpression'],
      'too-long',
      requiredValue(`must not exceed ${MAX_VALUE_EXPRESSION_BYTES} bytes in length`),
    );
  }
}

/** `validateValidatingAdmissionPolicyBindingSpec`. */
function bindingSpecProblems(spec: Record<string, unknown>, add: Add): void {
  const policy = spec.policyName;
  if (policy === '') add(['policyName'], 'required', requiredValue());
  else if (typeof policy === 'string') {
    for (const message of dns1123SubdomainProblems(policy)) {
      add(['policyName'], 'policy-name', invalidValue(policy, message));
    }
  }
  if (isPlainObject(spec.paramRef)) paramRefProblems(spec.paramRef, at(add, 'paramRef'));
  if (isPlainObject(spec.matchResources)) {
    matchResourcesProblems(spec.matchResources, at(add, 'matchResources'));
  }
  const actions = spec.validationActions;
  if (Array.isArray(actions)) {
    // An action outside the set, or written twice, is the OpenAPI's (an enum, a set).
    const written = actions.filter((action): action is string => typeof action === 'string');
    if (written.includes('Deny') && written.includes('Warn')) {
      add(
        ['validationActions'],
        'validation-actions',
        `Invalid value: []admissionregistration.ValidationAction{${written.map(goQuote).join(', ')}}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)`,
      );
    }
    if (actions.length === 0) {
      add(
        ['validationActions'],
        'required',
        requiredValue('at least one validation action is required'),
      );
    }
  }
}

/** `validateParamRef`: a name or a selector, not both, and what to do when none is found. */
function paramRefProblems(ref: Record<string, unknown>, add: Add): void {
  const name = typeof ref.name === 'string' ? ref.name : '';
  const hasSelector = ref.selector !== undefined && ref.selector !== null;
  if (name !== '') {
    for (const message of pathSegmentProblems(name)) {
      add(['name'], 'param-ref', invalidValue(name, message));
    }
    if (hasSelector) add(['name'], 'param-ref', forbiddenValue(MUTUALLY_EXCLUSIVE));
  }
  if (hasSelector) {
    labelSelectorProblems(ref.selector, at(add, 'selector'));
    if (name !== '') add(['selector'], 'param-ref', forbiddenValue(MUTUALLY_EXCLUSIVE));
  }
  if (name === '' && !hasSelector) {
    add([], 'required', requiredValue('one of name or selector must be specified'));
  }
  const action = ref.parameterNotFoundAction;
  if (action === undefined || action === null || action === '') {
    add(['parameterNotFoundAction'], 'required', requiredValue());
  } else if (typeof action === 'string' && !NOT_FOUND_ACTIONS.includes(action)) {
    add(['parameterNotFoundAction'], 'param-ref', unsupportedValue(action, NOT_FOUND_ACTIONS));
  }
}

/** `add` below `field`. */
function at(add: Add, field: string): Add {
  return (path, keyword, message) => add([field, ...path], keyword, message);
}

/** `check` of each object of the list `list`, adding below its index. */
function eachItem(
  list: unknown,
  add: Add,
  check: (item: Record<string, unknown>, add: Add) => void,
): void {
  if (!Array.isArray(list)) return;
  list.forEach((item: unknown, i) => {
    if (isPlainObject(item))
      check(item, (path, keyword, message) => add([i, ...path], keyword, message));
  });
}
