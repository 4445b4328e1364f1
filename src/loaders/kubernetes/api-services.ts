/**
 * What the aggregator checks of an APIService in Go (k8s.io/kube-aggregator
 * `pkg/apis/apiregistration/validation` `ValidateAPIService`): its name is `<version>.<group>`,
 * the group a DNS-1123 subdomain (empty only for the legacy `v1`), the version a DNS-1035
 * label, `groupPriorityMinimum` 1-20000 and `versionPriority` 1-1000; a local APIService (no
 * service) has no CA bundle nor `insecureSkipTLSVerify`, a remote one a service with a name, a
 * namespace and a port, and not both `insecureSkipTLSVerify` and a CA bundle. Each problem at its
 * field, in the aggregator's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { PORT_RANGE_MESSAGE } from './container-checks.js';
import { invalidValue, requiredValue } from './go-field-error.js';
import { dns1035LabelProblems, dns1123SubdomainProblems, type Add } from './label-syntax.js';

/** The problems of a built-in document of `group`/`kind` (an APIService's only). */
export function apiServiceProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'apiregistration.k8s.io' || kind !== 'APIService') return [];
  if (!isPlainObject(document.spec)) return [];
  const spec = document.spec;
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  const serviceGroup = typeof spec.group === 'string' ? spec.group : '';
  const version = typeof spec.version === 'string' ? spec.version : '';
  const name = isPlainObject(document.metadata) ? document.metadata.name : undefined;
  const required = `${version}.${serviceGroup}`;
  if (
    typeof name === 'string' &&
    name !== required &&
    !/[/%]/.test(name) &&
    name !== '.' &&
    name !== '..'
  ) {
    add(
      ['metadata', 'name'],
      'api-service',
      invalidValue(name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`),
    );
  }
  if (serviceGroup === '' && version !== 'v1') {
    add(
      ['spec', 'group'],
      'required',
      requiredValue('only v1 may have an empty group and it better be legacy kube'),
    );
  }
  if (serviceGroup !== '') {
    for (const message of dns1123SubdomainProblems(serviceGroup)) {
      add(['spec', 'group'], 'api-service', invalidValue(serviceGroup, message));
    }
  }
  for (const message of dns1035LabelProblems(version)) {
    add(['spec', 'version'], 'api-service', invalidValue(version, message));
  }
  priorityProblems(spec, 'groupPriorityMinimum', 20000, add);
  priorityProblems(spec, 'versionPriority', 1000, add);
  const caBytes =
    typeof spec.caBundle === 'string' ? Buffer.from(spec.caBundle, 'base64').length : 0;
  const insecure = spec.insecureSkipTLSVerify === true;
  const service = spec.service;
  if (!isPlainObject(service)) {
    if (caBytes > 0) {
      add(
        ['spec', 'caBundle'],
        'api-service',
        invalidValue(`${caBytes} bytes`, 'local APIServices may not have a caBundle'),
      );
    }
    if (insecure) {
      add(
        ['spec', 'insecureSkipTLSVerify'],
        'api-service',
        invalidValue(true, 'local APIServices may not have insecureSkipTLSVerify'),
      );
    }
    return problems;
  }
  for (const field of ['namespace', 'name']) {
    if (service[field] === '' || service[field] === undefined) {
      add(['spec', 'service', field], 'required', requiredValue());
    }
  }
  const port = service.port;
  if (typeof port === 'number' && (port < 1 || port > 65535)) {
    add(
      ['spec', 'service', 'port'],
      'port',
      invalidValue(port, `port is not valid: ${PORT_RANGE_MESSAGE}`),
    );
  }
  if (insecure && caBytes > 0) {
    add(
      ['spec', 'insecureSkipTLSVerify'],
      'api-service',
      invalidValue(true, 'may not be true if caBundle is present'),
    );
  }
  return problems;
}

/** A priority: more than 0, at most `max` (a missing one is the OpenAPI's `required`). */
function priorityProblems(
  spec: Record<string, unknown>,
  field: string,
  max: number,
  add: Add,
): void {
  const value = spec[field];
  if (typeof value === 'number' && (value <= 0 || value > max)) {
    add(
      ['spec', field],
      'api-service',
      invalidValue(value, `must be positive and less than ${max}`),
    );
  }
}
