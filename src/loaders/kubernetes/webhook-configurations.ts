/**
 * What the API server checks of a ValidatingWebhookConfiguration and a
 * MutatingWebhookConfiguration in Go (k8s.io/kubernetes `pkg/apis/admissionregistration/validation`
 * on create), beyond the closed sets its OpenAPI carries:
 *
 * - a webhook's name is a fully qualified DNS name of three segments at least
 *   (`webhook.example.com`), and no two webhooks have one name;
 * - its rules name operations, API groups, API versions and resources, a `*` alone, and
 *   resources and subresources without overlapping wildcards;
 * - `sideEffects` is `None` or `NoneOnDryRun` (`Some` and `Unknown` only stay on objects made
 *   before v1), `timeoutSeconds` is 1-30, selectors are label selectors;
 * - the client config has a `url` (https, a host, no user, query or fragment) or a `service`
 *   (a name, a namespace, a port 1-65535, a path of DNS-1123 segments), not both;
 * - `admissionReviewVersions` are DNS-1035 labels, none twice, one of them `v1` or `v1beta1`.
 *
 * `matchConditions` are named (`match-conditions.ts`) CEL, compiled by `admission-expressions.ts`. Each problem at its
 * field, in the API server's words (Go reports a service's missing namespace at `name` and the
 * reverse, kubernetes#141353; the finding points at the field as written).
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import {
  duplicateValue,
  invalidStringList,
  invalidValue,
  requiredValue,
  unsupportedValue,
} from './go-field-error.js';
import { PORT_RANGE_MESSAGE } from './container-checks.js';
import {
  dns1035LabelProblems,
  dns1123SubdomainProblems,
  labelSelectorProblems,
  type Add,
} from './label-syntax.js';
import { matchConditionProblems } from './match-conditions.js';

const KINDS = new Set(['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']);
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const URL_FORM = '; desired format: https://host[/path]';

/** The problems of a built-in document of `group`/`kind` (a webhook configuration's only). */
export function webhookConfigurationProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'admissionregistration.k8s.io' || !KINDS.has(kind)) return [];
  if (!Array.isArray(document.webhooks)) return [];
  const problems: SchemaProblem[] = [];
  const names = new Set<string>();
  document.webhooks.forEach((hook: unknown, i) => {
    if (!isPlainObject(hook)) return;
    const add: Add = (path, keyword, message) => {
      problems.push({
        path: jsonPointer(['webhooks', i, ...path]),
        part: 'value',
        keyword,
        message,
      });
    };
    const name = hook.name;
    if (typeof name === 'string') fullyQualifiedNameProblems(name, add);
    if (typeof name === 'string' && name !== '') {
      if (names.has(name)) add(['name'], 'duplicate', duplicateValue(name));
      names.add(name);
    }
    if (Array.isArray(hook.rules)) {
      hook.rules.forEach((rule: unknown, j) => {
        if (isPlainObject(rule)) {
          ruleWithOperationsProblems(rule, (path, keyword, message) =>
            add(['rules', j, ...path], keyword, message),
          );
        }
      });
    }
    const sideEffects = hook.sideEffects;
    if (typeof sideEffects === 'string' && !NO_SIDE_EFFECTS.includes(sideEffects)) {
      add(['sideEffects'], 'side-effects', unsupportedValue(sideEffects, NO_SIDE_EFFECTS));
    }
    const timeout = hook.timeoutSeconds;
    if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) {
      add(
        ['timeoutSeconds'],
        'timeout',
        invalidValue(timeout, 'the timeout value must be between 1 and 30 seconds'),
      );
    }
    for (const selector of ['namespaceSelector', 'objectSelector']) {
      if (isPlainObject(hook[selector])) {
        labelSelectorProblems(hook[selector], (path, keyword, message) =>
          add([selector, ...path], keyword, message),
        );
      }
    }
    if (isPlainObject(hook.clientConfig)) {
      clientConfigProblems(hook.clientConfig, (path, keyword, message) =>
        add(['clientConfig', ...path], keyword, message),
      );
    }
    matchConditionProblems(hook.matchConditions, (path, keyword, message) =>
      add(['matchConditions', ...path], keyword, message),
    );
    if (Array.isArray(hook.admissionReviewVersions)) {
      reviewVersionProblems(hook.admissionReviewVersions, (path, keyword, message) =>
        add(['admissionReviewVersions', ...path], keyword, message),
      );
    }
  });
  return problems;
}

/** `IsFullyQualifiedName`: a DNS-1123 subdomain of three segments at least. */
function fullyQualifiedNameProblems(name: string, add: Add): void {
  if (name === '') {
    add(['name'], 'required', requiredValue());
    return;
  }
  const messages = dns1123SubdomainProblems(name);
  if (messages.length > 0) {
    add(['name'], 'webhook-name', invalidValue(name, messages.join(',')));
  } else if (name.split('.').length < 3) {
    add(
      ['name'],
      'webhook-name',
      invalidValue(name, 'should be a domain with at least three segments separated by dots'),
    );
  }
}

/**
 * `validateRuleWithOperations` (the operations' closed set is the OpenAPI's), of a webhook's rule
 * and of an admission policy's.
 */
export function ruleWithOperationsProblems(rule: Record<string, unknown>, add: Add): void {
  const list = (field: string): string[] =>
    Array.isArray(rule[field])
      ? (rule[field] as unknown[]).filter((v): v is string => typeof v === 'string')
      : [];
  for (const [field, what] of [
    ['operations', 'operations'],
    ['apiGroups', 'API groups'],
    ['apiVersions', 'API versions'],
  ] as const) {
    const values = list(field);
    if (values.length === 0) add([field], 'required', requiredValue());
    if (values.length > 1 && values.includes('*')) {
      add(
        [field],
        'rule',
        invalidStringList(values, `if '*' is present, must not specify other ${what}`),
      );
    }
  }
  list('apiVersions').forEach((version, i) => {
    if (version === '') add(['apiVersions', i], 'required', requiredValue());
  });
  resourceProblems(list('resources'), (path, keyword, message) =>
    add(['resources', ...path], keyword, message),
  );
}

/** `validateResources`: resources and `resource/subresource`s whose wildcards do not overlap. */
function resourceProblems(resources: readonly string[], add: Add): void {
  if (resources.length === 0) add([], 'required', requiredValue());
  const wildcardSubresources = new Set<string>();
  const wildcardResources = new Set<string>();
  let bare = false;
  for (const [i, entry] of resources.entries()) {
    if (entry === '') {
      add([i], 'required', requiredValue());
      continue;
    }
    const slash = entry.indexOf('/');
    if (slash === -1) {
      bare = entry !== '*';
      continue;
    }
    const resource = entry.slice(0, slash);
    const subresource = entry.slice(slash + 1);
    if (wildcardSubresources.has(resource)) {
      add(
        [i],
        'rule',
        invalidValue(entry, `if '${resource}/*' is present, must not specify ${entry}`),
      );
    }
    if (wildcardResources.has(subresource)) {
      add(
        [i],
        'rule',
        invalidValue(entry, `if '*/${subresource}' is present, must not specify ${entry}`),
      );
    }
    if (subresource === '*') wildcardSubresources.add(resource);
    if (resource === '*') wildcardResources.add(subresource);
  }
  if (resources.length > 1 && resources.includes('*/*')) {
    add(
      [],
      'rule',
      invalidStringList(resources, "if '*/*' is present, must not specify other resources"),
    );
  }
  if (resources.includes('*') && bare) {
    add(
      [],
      'rule',
      invalidStringList(
        resources,
        "if '*' is present, must not specify other resources without subresources",
      ),
    );
  }
}

/** Exactly one of `url` and `service`, each as `ValidateWebhookURL` and `ValidateWebhookService` check it. */
export function clientConfigProblems(config: Record<string, unknown>, add: Add): void {
  const url = config.url;
  const service = config.service;
  const hasUrl = url !== undefined && url !== null;
  const hasService = service !== undefined && service !== null;
  if (hasUrl === hasService) {
    add([], 'client-config', requiredValue('exactly one of url or service is required'));
    return;
  }
  if (typeof url === 'string') urlProblems(url, (path, k, m) => add(['url', ...path], k, m));
  if (isPlainObject(service)) {
    serviceProblems(service, (path, k, m) => add(['service', ...path], k, m));
  }
}

/** `ValidateWebhookURL` with https required, reading the URL as Go's `url.Parse` splits it. */
function urlProblems(text: string, add: Add): void {
  const parts = goUrlParts(text);
  if (parts.scheme !== 'https') {
    add([], 'url', invalidValue(parts.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  }
  if (parts.host === '') add([], 'url', invalidValue('', `host must be specified${URL_FORM}`));
  if (parts.user !== undefined) {
    add([], 'url', invalidValue(parts.user, 'user information is not permitted in the URL'));
  }
  if (parts.fragment !== '') {
    add([], 'url', invalidValue(parts.fragment, 'fragments are not permitted in the URL'));
  }
  if (parts.query !== '') {
    add([], 'url', invalidValue(parts.query, 'query parameters are not permitted in the URL'));
  }
}

/** The parts of a URL as Go's `url.Parse` splits them: scheme (lower case), user, host, query, fragment. */
function goUrlParts(text: string): {
  scheme: string;
  user: string | undefined;
  host: string;
  query: string;
  fragment: string;
} {
  let rest = text;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash !== -1) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (scheme !== null) rest = rest.slice(scheme[0].length);
  let query = '';
  const question = rest.indexOf('?');
  if (question !== -1) {
    query = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  let user: string | undefined;
  let host = '';
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0] ?? '';
    const at = authority.lastIndexOf('@');
    if (at !== -1) user = authority.slice(0, at);
    host = at === -1 ? authority : authority.slice(at + 1);
  }
  return { scheme: scheme?.[1]?.toLowerCase() ?? '', user, host, query, fragment };
}

/** `ValidateWebhookService`: a name, a namespace, a port 1-65535, a path of DNS-1123 segments. */
function serviceProblems(service: Record<string, unknown>, add: Add): void {
  for (const field of ['name', 'namespace']) {
    if (service[field] === '' || service[field] === undefined)
      add([field], 'required', requiredValue());
  }
  const port = service.port;
  if (typeof port === 'number' && (port < 1 || port > 65535)) {
    add(['port'], 'port', invalidValue(port, `port is not valid: ${PORT_RANGE_MESSAGE}`));
  }
  const path = service.path;
  if (typeof path !== 'string' || path === '' || path === '/') return;
  if (path === '//') {
    add(['path'], 'service-path', invalidValue(path, 'segment[0] may not be empty'));
    return;
  }
  if (!path.startsWith('/')) {
    add(['path'], 'service-path', invalidValue(path, "must start with a '/'"));
  }
  let steps = path.slice(1);
  if (steps.endsWith('/')) steps = steps.slice(0, -1);
  steps.split('/').forEach((step, i) => {
    if (step === '') {
      add(['path'], 'service-path', invalidValue(path, `segment[${i}] may not be empty`));
      return;
    }
    for (const message of dns1123SubdomainProblems(step)) {
      add(['path'], 'service-path', invalidValue(path, `segment[${i}]: ${message}`));
    }
  });
}

/** `validateAdmissionReviewVersions`: labels, none twice, one the API server speaks. */
export function reviewVersionProblems(versions: readonly unknown[], add: Add): void {
  const strings = versions.filter((v): v is string => typeof v === 'string');
  if (strings.length === 0) {
    add([], 'required', requiredValue(`must specify one of ${REVIEW_VERSIONS.join(', ')}`));
    return;
  }
  const seen = new Set<string>();
  versions.forEach((version, i) => {
    if (typeof version !== 'string') return;
    if (seen.has(version)) {
      add([i], 'review-version', invalidValue(version, 'duplicate version'));
      return;
    }
    seen.add(version);
    for (const message of dns1035LabelProblems(version)) {
      add([i], 'review-version', invalidValue(version, message));
    }
  });
  if (!strings.some((v) => REVIEW_VERSIONS.includes(v))) {
    add(
      [],
      'review-version',
      invalidStringList(strings, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`),
    );
  }
}
