/**
 * What the API server checks in Go of Ingresses and IngressClasses, which the OpenAPI does not
 * (k8s.io/kubernetes `pkg/apis/networking/validation`): an Ingress has rules or a default backend
 * (`ValidateIngressSpec`); a rule's host is a DNS name, `*.` only as its first label, never an IP
 * address; an HTTP rule has paths, an `Exact` or `Prefix` path is absolute and clean (no `//`,
 * `/./`, `/../`, `%2F`, no trailing `/.` or `/..`), an `ImplementationSpecific` one absolute if
 * given (`validateHTTPIngressPath`); a backend is a Service (a DNS-1035 name, a port by name or
 * by number, not both) or a resource, not both (`validateIngressBackend`); TLS hosts and secret
 * names are DNS names; `ingressClassName` and the `kubernetes.io/ingress.class` annotation are
 * not both set (`ValidateIngressCreate`), and the annotation alone is the API server's deprecation
 * warning (an `api-warning`). An IngressClass's `controller` is a domain-prefixed
 * path and its `parameters` a reference of a kind and a name, `scope: Namespace` with a
 * namespace and `Cluster` without (`validateIngressClassSpec`). Each problem at its field, in the
 * API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  forbiddenValue,
  invalidStructValue,
  invalidValue,
  requiredValue,
  unsupportedValue,
} from './go-field-error.js';
import { apiWarning } from './api-warnings.js';
import { isSloppyIpAddress } from './ip-address.js';
import {
  dns1035LabelProblems,
  dns1123SubdomainProblems,
  dns1123LabelProblems,
  pathSegmentProblems,
  wildcardDns1123SubdomainProblems,
} from './label-syntax.js';
import { PORT_RANGE_MESSAGE, isOutOfPortRange, portNameProblems } from './container-checks.js';

type Path = readonly (string | number)[];
type Add = (path: Path, keyword: string, message: string) => void;

const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const MAX_CONTROLLER_LENGTH = 250;
/** RFC 3986's path characters: what follows the domain of a domain-prefixed path. */
const HTTP_PATH_FORMAT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH = new RegExp(`^${HTTP_PATH_FORMAT}$`);
const SCOPES = ['Cluster', 'Namespace'];

/** The problems of a built-in Ingress or IngressClass document. */
export function ingressProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'networking.k8s.io' || (kind !== 'Ingress' && kind !== 'IngressClass')) return [];
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  if (kind === 'IngressClass') {
    ingressClassSpecProblems(spec, add);
    return problems;
  }
  ingressSpecProblems(spec, add);
  const annotations = isPlainObject(document.metadata) ? document.metadata.annotations : undefined;
  const annotated = isPlainObject(annotations) ? annotations[CLASS_ANNOTATION] : undefined;
  if (isPlainObject(annotations) && Object.hasOwn(annotations, CLASS_ANNOTATION)) {
    // The ingress strategy's `WarningsOnCreate`: kubectl prints it as `Warning: ...`.
    problems.push(
      apiWarning(
        ['metadata', 'annotations', CLASS_ANNOTATION],
        `annotation ${JSON.stringify(CLASS_ANNOTATION)} is deprecated, please use 'spec.ingressClassName' instead`,
      ),
    );
  }
  if (
    typeof annotated === 'string' &&
    spec.ingressClassName !== undefined &&
    spec.ingressClassName !== null
  ) {
    add(
      ['metadata', 'annotations', CLASS_ANNOTATION],
      'ingress-class',
      invalidValue(annotated, 'can not be set when the class field is also set'),
    );
  }
  return problems;
}

function ingressSpecProblems(spec: Record<string, unknown>, add: Add): void {
  const { rules, defaultBackend, tls, ingressClassName } = spec;
  const hasRules = Array.isArray(rules) && rules.length > 0;
  if (!hasRules && (defaultBackend === undefined || defaultBackend === null)) {
    add(
      ['spec'],
      'required',
      invalidStructValue(rules ?? null, 'either `defaultBackend` or `rules` must be specified'),
    );
  }
  if (isPlainObject(defaultBackend))
    backendProblems(defaultBackend, ['spec', 'defaultBackend'], add);
  if (hasRules) {
    rules.forEach((rule: unknown, i) => {
      if (isPlainObject(rule)) ruleProblems(rule, ['spec', 'rules', i], add);
    });
  }
  if (Array.isArray(tls)) {
    tls.forEach((entry: unknown, i) => {
      if (isPlainObject(entry)) tlsProblems(entry, ['spec', 'tls', i], add);
    });
  }
  if (typeof ingressClassName === 'string') {
    for (const message of dns1123SubdomainProblems(ingressClassName)) {
      add(
        ['spec', 'ingressClassName'],
        'dns-1123-subdomain',
        invalidValue(ingressClassName, message),
      );
    }
  }
}

function ruleProblems(rule: Record<string, unknown>, at: Path, add: Add): void {
  const host = rule.host;
  if (typeof host === 'string' && host !== '') {
    if (isSloppyIpAddress(host)) {
      add([...at, 'host'], 'host', invalidValue(host, 'must be a DNS name, not an IP address'));
    }
    const messages = host.includes('*')
      ? wildcardDns1123SubdomainProblems(host)
      : dns1123SubdomainProblems(host);
    for (const message of messages) add([...at, 'host'], 'host', invalidValue(host, message));
  }
  const http = rule.http;
  if (!isPlainObject(http)) return;
  const paths = http.paths;
  if (!Array.isArray(paths) || paths.length === 0) {
    // Absent, the schema requires it already.
    if (Array.isArray(paths)) add([...at, 'http', 'paths'], 'required', requiredValue());
    return;
  }
  paths.forEach((path: unknown, i) => {
    if (isPlainObject(path)) httpPathProblems(path, [...at, 'http', 'paths', i], add);
  });
}

function httpPathProblems(entry: Record<string, unknown>, at: Path, add: Add): void {
  const { pathType } = entry;
  const path = typeof entry.path === 'string' ? entry.path : '';
  // Absent, the schema requires it; not a string, the schema reports its type.
  if (typeof pathType !== 'string') return;
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!path.startsWith('/')) {
      add([...at, 'path'], 'ingress-path', invalidValue(path, 'must be an absolute path'));
    }
    for (const sequence of INVALID_PATH_SEQUENCES) {
      if (path.includes(sequence)) {
        add([...at, 'path'], 'ingress-path', invalidValue(path, `must not contain '${sequence}'`));
      }
    }
    for (const suffix of INVALID_PATH_SUFFIXES) {
      if (path.endsWith(suffix)) {
        add([...at, 'path'], 'ingress-path', invalidValue(path, `cannot end with '${suffix}'`));
      }
    }
  } else if (pathType === 'ImplementationSpecific') {
    if (path !== '' && !path.startsWith('/')) {
      add([...at, 'path'], 'ingress-path', invalidValue(path, 'must be an absolute path'));
    }
  }
  if (isPlainObject(entry.backend)) backendProblems(entry.backend, [...at, 'backend'], add);
}

/** `validateIngressBackend`: a Service or a resource, one of them. */
function backendProblems(backend: Record<string, unknown>, at: Path, add: Add): void {
  const hasService = backend.service !== undefined && backend.service !== null;
  const hasResource = backend.resource !== undefined && backend.resource !== null;
  if (hasService && hasResource) {
    add(at, 'backend', invalidValue('', 'cannot set both resource and service backends'));
    return;
  }
  if (hasResource) {
    if (isPlainObject(backend.resource))
      referenceProblems(backend.resource, [...at, 'resource'], add);
    return;
  }
  if (!hasService) {
    add(at, 'backend', invalidValue('', 'resource or service backend is required'));
    return;
  }
  const service = backend.service;
  if (!isPlainObject(service)) return;
  const name = service.name;
  if (name === '') add([...at, 'service', 'name'], 'required', requiredValue());
  else if (typeof name === 'string') {
    for (const message of dns1035LabelProblems(name)) {
      add([...at, 'service', 'name'], 'dns-1035-label', invalidValue(name, message));
    }
  }
  const port = isPlainObject(service.port) ? service.port : {};
  const portName = typeof port.name === 'string' ? port.name : '';
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0) {
    add(at, 'backend', invalidValue('', 'cannot set both port name & port number'));
  } else if (portName !== '') {
    for (const message of portNameProblems(portName)) {
      add([...at, 'service', 'port', 'name'], 'port-name', invalidValue(portName, message));
    }
  } else if (portNumber !== 0) {
    if (isOutOfPortRange(portNumber)) {
      add(
        [...at, 'service', 'port', 'number'],
        'port-range',
        invalidValue(portNumber, PORT_RANGE_MESSAGE),
      );
    }
  } else add(at, 'required', requiredValue('port name or number is required'));
}

/** `validateIngressTypedLocalObjectReference`: an API group, a kind and a name. */
function referenceProblems(reference: Record<string, unknown>, at: Path, add: Add): void {
  const { apiGroup, kind, name } = reference;
  if (typeof apiGroup === 'string') {
    for (const message of dns1123SubdomainProblems(apiGroup)) {
      add([...at, 'apiGroup'], 'dns-1123-subdomain', invalidValue(apiGroup, message));
    }
  }
  for (const [field, value] of [
    ['kind', kind],
    ['name', name],
  ] as const) {
    if (value === '') add([...at, field], 'required', requiredValue(`${field} is required`));
    else if (typeof value === 'string') {
      for (const message of pathSegmentProblems(value)) {
        add([...at, field], 'path-segment', invalidValue(value, message));
      }
    }
  }
}

function tlsProblems(entry: Record<string, unknown>, at: Path, add: Add): void {
  if (Array.isArray(entry.hosts)) {
    entry.hosts.forEach((host: unknown, i) => {
      if (typeof host !== 'string') return;
      const messages = host.includes('*')
        ? wildcardDns1123SubdomainProblems(host)
        : dns1123SubdomainProblems(host);
      for (const message of messages) add([...at, 'hosts', i], 'host', invalidValue(host, message));
    });
  }
  const secretName = entry.secretName;
  if (typeof secretName === 'string' && secretName !== '') {
    for (const message of dns1123SubdomainProblems(secretName)) {
      add([...at, 'secretName'], 'dns-1123-subdomain', invalidValue(secretName, message));
    }
  }
}

/** `validateIngressClassSpec`: the controller and the parameters' reference. */
function ingressClassSpecProblems(spec: Record<string, unknown>, add: Add): void {
  const controller = typeof spec.controller === 'string' ? spec.controller : '';
  if (controller.length > MAX_CONTROLLER_LENGTH) {
    add(
      ['spec', 'controller'],
      'maxLength',
      `Too long: may not be more than ${MAX_CONTROLLER_LENGTH} bytes`,
    );
  }
  domainPrefixedPathProblems(controller, ['spec', 'controller'], add);
  const parameters = spec.parameters;
  if (!isPlainObject(parameters)) return;
  const at = ['spec', 'parameters'];
  referenceProblems(parameters, at, add);
  const { scope, namespace } = parameters;
  const hasScope = scope !== undefined && scope !== null;
  const hasNamespace = namespace !== undefined && namespace !== null;
  if (!hasScope && !hasNamespace) return;
  const given = typeof scope === 'string' ? scope : '';
  if (!SCOPES.includes(given)) {
    add([...at, 'scope'], 'enum', unsupportedValue(given, SCOPES));
    return;
  }
  if (given === 'Namespace') {
    if (!hasNamespace) {
      add(
        [...at, 'namespace'],
        'required',
        requiredValue("`parameters.scope` is set to 'Namespace'"),
      );
    } else if (typeof namespace === 'string') {
      for (const message of dns1123LabelProblems(namespace)) {
        add([...at, 'namespace'], 'dns-1123-label', invalidValue(namespace, message));
      }
    }
  } else if (hasNamespace) {
    add(
      [...at, 'namespace'],
      'forbidden',
      forbiddenValue("`parameters.scope` is set to 'Cluster'"),
    );
  }
}

/** apimachinery's `IsDomainPrefixedPath`: `acme.io/foo`. */
function domainPrefixedPathProblems(value: string, at: Path, add: Add): void {
  if (value === '') {
    add(at, 'required', requiredValue());
    return;
  }
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || path === '') {
    add(
      at,
      'domain-prefixed-path',
      invalidValue(value, 'must be a domain-prefixed path (such as "acme.io/foo")'),
    );
    return;
  }
  for (const message of dns1123SubdomainProblems(host)) {
    add(at, 'domain-prefixed-path', invalidValue(host, message));
  }
  if (!HTTP_PATH.test(path)) {
    add(
      at,
      'domain-prefixed-path',
      invalidValue(path, `Invalid path (regex used for validation is '${HTTP_PATH_FORMAT}')`),
    );
  }
}
