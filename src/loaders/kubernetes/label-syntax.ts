/**
 * apimachinery's syntax checks of label keys, label values, DNS subdomains and label selectors
 * (`util/validation`: `IsQualifiedName`, `IsValidLabelValue`, `IsDNS1123Subdomain`;
 * `apis/meta/v1/validation`: `ValidateLabelName`, `ValidateLabelSelector`), each message in the
 * API server's words. The Go checks of tolerations, affinity and `fieldRef` subscripts use them.
 */

import { isPlainObject } from '../manifest-document.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';

const QUALIFIED_NAME_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
/** A qualified name's name part (a label key after its `prefix/`). */
export const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FORMAT}$`);
/** A DNS-1123 label (a container's, a volume's, a namespace's name); at most 63 characters. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE_FORMAT = `(${QUALIFIED_NAME_FORMAT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FORMAT}$`);
const DNS1123_SUBDOMAIN_FORMAT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
/** A DNS-1123 subdomain (most objects' names, a label key's prefix); at most 253 characters. */
export const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FORMAT}$`);
const DNS1123_LABEL_WITH_UNDERSCORE_FORMAT = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_WITH_UNDERSCORE_FORMAT = `${DNS1123_LABEL_WITH_UNDERSCORE_FORMAT}(\\.${DNS1123_LABEL_WITH_UNDERSCORE_FORMAT})*`;
const DNS1123_SUBDOMAIN_WITH_UNDERSCORE = new RegExp(
  `^${DNS1123_SUBDOMAIN_WITH_UNDERSCORE_FORMAT}$`,
);

/** apimachinery's `RegexError`: the message, its examples and the regular expression. */
/** apimachinery's `RegexError`: what a value must be, the pattern and examples. */
export function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  const listed = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (e.g. ${listed}regex used for validation is '${format}')`;
}

const QUALIFIED_NAME_MESSAGE = regexError(
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  QUALIFIED_NAME_FORMAT,
  'MyName',
  'my.name',
  '123-abc',
);
const LABEL_VALUE_MESSAGE = regexError(
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  LABEL_VALUE_FORMAT,
  'MyValue',
  'my_value',
  '12345',
);
const DNS1123_SUBDOMAIN_MESSAGE = regexError(
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  DNS1123_SUBDOMAIN_FORMAT,
  'example.com',
);

/** `IsDNS1123Label`'s message of a name that does not match. */
export const DNS1123_LABEL_MESSAGE = regexError(
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  '[a-z0-9]([-a-z0-9]*[a-z0-9])?',
  'my-name',
  '123-abc',
);
const DNS1035_LABEL_FORMAT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FORMAT}$`);
const DNS1035_LABEL_MESSAGE = regexError(
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
  DNS1035_LABEL_FORMAT,
  'my-name',
  'abc-123',
);
const WILDCARD_DNS1123_SUBDOMAIN_FORMAT = `\\*\\.${DNS1123_SUBDOMAIN_FORMAT}`;
const WILDCARD_DNS1123_SUBDOMAIN = new RegExp(`^${WILDCARD_DNS1123_SUBDOMAIN_FORMAT}$`);
const WILDCARD_DNS1123_SUBDOMAIN_MESSAGE = regexError(
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
  WILDCARD_DNS1123_SUBDOMAIN_FORMAT,
  '*.example.com',
);

const DNS1123_SUBDOMAIN_WITH_UNDERSCORE_MESSAGE = regexError(
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
  DNS1123_SUBDOMAIN_WITH_UNDERSCORE_FORMAT,
  'example.com',
);

const maxLength = (n: number): string => `must be no more than ${n} characters`;

/** `IsDNS1123Subdomain`, every message it gives. */
export function dns1123SubdomainProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 253) problems.push(maxLength(253));
  if (!DNS1123_SUBDOMAIN.test(value)) problems.push(DNS1123_SUBDOMAIN_MESSAGE);
  return problems;
}

/** `IsDNS1123Label` (a namespace's name), every message it gives. */
export function dns1123LabelProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push(maxLength(63));
  if (!DNS1123_LABEL.test(value)) {
    // Go's `IsDNS1123Label`: a valid subdomain that is no label has dots (its length was said).
    problems.push(DNS1123_SUBDOMAIN.test(value) ? 'must not contain dots' : DNS1123_LABEL_MESSAGE);
  }
  return problems;
}

/** `IsDNS1035Label` (a Service's name), every message it gives. */
export function dns1035LabelProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push(maxLength(63));
  if (!DNS1035_LABEL.test(value)) problems.push(DNS1035_LABEL_MESSAGE);
  return problems;
}

/** `IsWildcardDNS1123Subdomain` (`*.example.com`), every message it gives. */
export function wildcardDns1123SubdomainProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 253) problems.push(maxLength(253));
  if (!WILDCARD_DNS1123_SUBDOMAIN.test(value)) problems.push(WILDCARD_DNS1123_SUBDOMAIN_MESSAGE);
  return problems;
}

/** `path.IsValidPathSegmentName` (a role's name, a reference's kind), every message it gives. */
export function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const problems: string[] = [];
  for (const illegal of ['/', '%']) {
    if (name.includes(illegal)) problems.push(`may not contain '${illegal}'`);
  }
  return problems;
}

/** `IsDNS1123SubdomainWithUnderscore` (a pod's DNS search domain from 1.33), every message it gives. */
export function dns1123SubdomainWithUnderscoreProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 253) problems.push(maxLength(253));
  if (!DNS1123_SUBDOMAIN_WITH_UNDERSCORE.test(value)) {
    problems.push(DNS1123_SUBDOMAIN_WITH_UNDERSCORE_MESSAGE);
  }
  return problems;
}

/** `IsQualifiedName` (a label key, an annotation key in lower case), every message it gives. */
export function qualifiedNameProblems(value: string): string[] {
  const problems: string[] = [];
  const parts = value.split('/');
  if (parts.length > 2) {
    return [
      `a qualified name ${QUALIFIED_NAME_MESSAGE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const name = parts.length === 2 ? (parts[1] ?? '') : value;
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') problems.push('prefix part must be non-empty');
    else problems.push(...dns1123SubdomainProblems(prefix).map((m) => `prefix part ${m}`));
  }
  if (name === '') problems.push('name part must be non-empty');
  else if (name.length > 63) problems.push(`name part ${maxLength(63)}`);
  if (!QUALIFIED_NAME.test(name)) problems.push(`name part ${QUALIFIED_NAME_MESSAGE}`);
  return problems;
}

/** `IsValidLabelValue`, every message it gives. */
export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push(maxLength(63));
  if (!LABEL_VALUE.test(value)) problems.push(LABEL_VALUE_MESSAGE);
  return problems;
}

export type Add = (path: (string | number)[], keyword: string, message: string) => void;

/** `ValidateLabelName`: a label key at `path`, each problem an `Invalid value`. */
export function labelNameProblems(key: string, path: (string | number)[], add: Add): void {
  for (const message of qualifiedNameProblems(key)) {
    add(path, 'label-key', invalidValue(key, message));
  }
}

/**
 * `ValidateLabels` of a map of labels at `at` (a selector's `matchLabels`, a Service's
 * `selector`, a pod's `nodeSelector`): each key a qualified name, each value a label value. Go
 * reports both at the map; they are reported here at the key they concern.
 */
export function labelMapProblems(labels: unknown, at: (string | number)[], add: Add): void {
  if (!isPlainObject(labels)) return;
  for (const [key, value] of Object.entries(labels)) {
    labelNameProblems(key, [...at, key], add);
    if (typeof value !== 'string') continue;
    for (const message of labelValueProblems(value)) {
      add([...at, key], 'label-value', invalidValue(value, message));
    }
  }
}

/**
 * `ValidateLabelSelector` of a `metav1.LabelSelector` (a pod affinity term's `labelSelector`
 * and `namespaceSelector`). Go reports a `matchLabels` problem at `matchLabels`; it is reported
 * here at the key it concerns. An operator of a requirement is checked here (the OpenAPI has no
 * closed set for it).
 */
export function labelSelectorProblems(selector: unknown, add: Add): void {
  if (!isPlainObject(selector)) return;
  labelMapProblems(selector.matchLabels, ['matchLabels'], add);
  if (!Array.isArray(selector.matchExpressions)) return;
  selector.matchExpressions.forEach((requirement: unknown, i) => {
    if (!isPlainObject(requirement)) return;
    const at = ['matchExpressions', i];
    const values = Array.isArray(requirement.values) ? requirement.values : [];
    const operator = requirement.operator;
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) {
        add(
          [...at, 'values'],
          'selector',
          requiredValue("must be specified when `operator` is 'In' or 'NotIn'"),
        );
      }
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) {
        add(
          [...at, 'values'],
          'selector',
          forbiddenValue("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
    } else if (typeof operator === 'string') {
      add([...at, 'operator'], 'selector', invalidValue(operator, 'not a valid selector operator'));
    }
    if (typeof requirement.key === 'string')
      labelNameProblems(requirement.key, [...at, 'key'], add);
    values.forEach((value: unknown, j) => {
      if (typeof value !== 'string') return;
      for (const message of labelValueProblems(value)) {
        add([...at, 'values', j], 'label-value', invalidValue(value, message));
      }
    });
  });
}
