import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { cidrContains, parseSloppyCidr } from '../../../src/loaders/kubernetes/ip-address.js';

/**
 * What the API server refuses of Ingresses, IngressClasses and NetworkPolicies that the OpenAPI
 * passes (k8s.io/kubernetes `pkg/apis/networking/validation`).
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'net.yaml', text }]).findings;

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const WILDCARD =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** Each document named apart, so that none is another's duplicate. */
let documents = 0;
const ingress = (spec: string, metadata = `{ name: web${documents++} }`) =>
  `---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: ${metadata}\nspec: ${spec}\n`;
const rule = (host: string, path: string, pathType: string, backend: string) =>
  `{ rules: [{ host: "${host}", http: { paths: [{ path: "${path}", pathType: ${pathType}, backend: ${backend} }] } }] }`;
const SERVICE = '{ service: { name: web, port: { number: 80 } } }';

describe('an Ingress the API server admits (ValidateIngressSpec)', () => {
  it('takes the usual shapes: a host, a wildcard host, clean paths, a named port, a resource', () => {
    const findings = load(
      ingress(rule('example.com', '/', 'Prefix', SERVICE)) +
        ingress(rule('*.example.com', '/api/v1', 'Exact', SERVICE)) +
        ingress(
          rule(
            '',
            '',
            'ImplementationSpecific',
            '{ service: { name: web, port: { name: http } } }',
          ),
        ) +
        ingress(
          '{ defaultBackend: { resource: { apiGroup: k8s.example.com, kind: StorageBucket, name: static } } }',
        ) +
        ingress(
          `{ ingressClassName: nginx, tls: [{ hosts: ["*.example.com", example.com], secretName: web-tls }], defaultBackend: ${SERVICE} }`,
        ),
    );
    expect(findings).toEqual([]);
  });

  it('has rules or a default backend', () => {
    expect(load(ingress('{}')).map(at)).toEqual([
      ['/spec', 'Invalid value: null: either `defaultBackend` or `rules` must be specified'],
    ]);
    expect(load(ingress('{ rules: [] }')).map(at)).toEqual([
      ['/spec', 'Invalid value: []: either `defaultBackend` or `rules` must be specified'],
    ]);
  });

  it('has DNS names for hosts, never an IP address, a wildcard only first', () => {
    const findings = load(
      ingress(rule('10.0.0.1', '/', 'Prefix', SERVICE)) +
        ingress(rule('foo.*.example.com', '/', 'Prefix', SERVICE)) +
        ingress(rule('Example.com', '/', 'Prefix', SERVICE)),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/rules/0/host', 'Invalid value: "10.0.0.1": must be a DNS name, not an IP address'],
      ['/spec/rules/0/host', `Invalid value: "foo.*.example.com": ${WILDCARD}`],
      ['/spec/rules/0/host', `Invalid value: "Example.com": ${SUBDOMAIN}`],
    ]);
  });

  it('has absolute, clean paths for Exact and Prefix, absolute ones for ImplementationSpecific', () => {
    const findings = load(
      ingress(rule('a.example', 'api', 'Prefix', SERVICE)) +
        ingress(rule('a.example', '/a//b/..', 'Exact', SERVICE)) +
        ingress(rule('a.example', '/a%2Fb', 'Prefix', SERVICE)) +
        ingress(rule('a.example', 'api', 'ImplementationSpecific', SERVICE)) +
        ingress('{ rules: [{ host: a.example, http: { paths: [] } }] }'),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/rules/0/http/paths/0/path', 'Invalid value: "api": must be an absolute path'],
      ['/spec/rules/0/http/paths/0/path', 'Invalid value: "/a//b/..": must not contain \'//\''],
      ['/spec/rules/0/http/paths/0/path', 'Invalid value: "/a//b/..": cannot end with \'/..\''],
      ['/spec/rules/0/http/paths/0/path', 'Invalid value: "/a%2Fb": must not contain \'%2F\''],
      ['/spec/rules/0/http/paths/0/path', 'Invalid value: "api": must be an absolute path'],
      ['/spec/rules/0/http/paths', 'Required value'],
    ]);
  });

  it('has a backend that is a Service by port name or number, or a resource, one of them', () => {
    const path = '/spec/rules/0/http/paths/0/backend';
    const findings = load(
      ingress(
        rule('a.example', '/', 'Prefix', '{ service: { name: My.Svc, port: { number: 0 } } }'),
      ) +
        ingress(
          rule(
            'a.example',
            '/',
            'Prefix',
            '{ service: { name: web, port: { name: http, number: 80 } } }',
          ),
        ) +
        ingress(
          rule(
            'a.example',
            '/',
            'Prefix',
            '{ service: { name: web, port: { number: 80 } }, resource: { kind: Bucket, name: b } }',
          ),
        ) +
        ingress(rule('a.example', '/', 'Prefix', '{}')) +
        ingress(rule('a.example', '/', 'Prefix', '{ resource: { kind: "", name: a/b } }')),
    );
    expect(findings.map(at)).toEqual([
      [path, 'Required value: port name or number is required'],
      [
        `${path}/service/name`,
        "Invalid value: \"My.Svc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
      [path, 'Invalid value: "": cannot set both port name & port number'],
      [path, 'Invalid value: "": cannot set both resource and service backends'],
      [path, 'Invalid value: "": resource or service backend is required'],
      [`${path}/resource/kind`, 'Required value: kind is required'],
      [`${path}/resource/name`, 'Invalid value: "a/b": may not contain \'/\''],
    ]);
  });

  it("warns of the class annotation alone, as the API server does (kubectl's `Warning:`)", () => {
    const findings = load(
      ingress(
        `{ defaultBackend: ${SERVICE} }`,
        '{ name: old, annotations: { kubernetes.io/ingress.class: nginx } }',
      ),
    );
    expect(findings.map((f) => [f.code, f.severity, f.pointer])).toEqual([
      ['api-warning', 'warning', '/metadata/annotations/kubernetes.io~1ingress.class'],
    ]);
  });

  it('has DNS names for TLS hosts, secrets and the class, and not the class twice', () => {
    const findings = load(
      ingress(
        `{ ingressClassName: Nginx, tls: [{ hosts: ["*.*.example.com"], secretName: Web_TLS }], defaultBackend: ${SERVICE} }`,
        '{ name: web, annotations: { kubernetes.io/ingress.class: nginx } }',
      ),
    );
    expect(findings.map(at)).toEqual([
      [
        '/metadata/annotations/kubernetes.io~1ingress.class',
        `annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`,
      ],
      [
        '/metadata/annotations/kubernetes.io~1ingress.class',
        'Invalid value: "nginx": can not be set when the class field is also set',
      ],
      ['/spec/ingressClassName', `Invalid value: "Nginx": ${SUBDOMAIN}`],
      ['/spec/tls/0/hosts/0', `Invalid value: "*.*.example.com": ${WILDCARD}`],
      ['/spec/tls/0/secretName', `Invalid value: "Web_TLS": ${SUBDOMAIN}`],
    ]);
  });
});

describe('an IngressClass the API server admits (validateIngressClassSpec)', () => {
  const ingressClass = (spec: string) =>
    `---\napiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: { name: c${documents++} }\nspec: ${spec}\n`;

  it('names a domain-prefixed controller, and parameters in their scope', () => {
    const findings = load(
      ingressClass(
        '{ controller: k8s.io/ingress-nginx, parameters: { apiGroup: k8s.example.com, kind: Params, name: p, scope: Namespace, namespace: ingress } }',
      ) +
        ingressClass('{ controller: nginx }') +
        ingressClass('{ controller: Example.com/x }') +
        ingressClass('{ controller: example.com/a b }') +
        ingressClass(
          '{ controller: example.com/x, parameters: { kind: P, name: p, scope: Namespace } }',
        ) +
        ingressClass(
          '{ controller: example.com/x, parameters: { kind: P, name: p, scope: Cluster, namespace: ns } }',
        ) +
        ingressClass('{}'),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/controller',
        'Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
      ],
      ['/spec/controller', `Invalid value: "Example.com": ${SUBDOMAIN}`],
      [
        '/spec/controller',
        "Invalid value: \"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
      ],
      ['/spec/parameters/namespace', "Required value: `parameters.scope` is set to 'Namespace'"],
      ['/spec/parameters/namespace', "Forbidden: `parameters.scope` is set to 'Cluster'"],
      ['/spec/controller', 'Required value'],
    ]);
  });
});

describe('a NetworkPolicy the API server admits (ValidateNetworkPolicySpec)', () => {
  const policy = (spec: string) =>
    `---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: np${documents++} }\nspec: ${spec}\n`;

  it('takes the documented examples', () => {
    const findings = load(
      policy(
        '{ podSelector: { matchLabels: { role: db } }, policyTypes: [Ingress, Egress], ingress: [{ from: [{ ipBlock: { cidr: 172.17.0.0/16, except: [172.17.1.0/24] } }, { namespaceSelector: { matchLabels: { project: myproject } }, podSelector: { matchLabels: { role: frontend } } }], ports: [{ protocol: TCP, port: 6379 }] }], egress: [{ to: [{ ipBlock: { cidr: 10.0.0.0/24 } }], ports: [{ protocol: TCP, port: 32000, endPort: 32768 }, { port: dns }] }] }',
      ) +
        policy(
          '{ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "2001:db8::/32", except: ["2001:db8:1::/48"] } }] }] }',
        ),
    );
    expect(findings).toEqual([]);
  });

  it('has one kind of peer, an ipBlock alone, exceptions strictly inside the CIDR', () => {
    const findings = load(
      policy(
        '{ podSelector: {}, ingress: [{ from: [{}, { ipBlock: { cidr: 10.0.0.0/8 }, podSelector: {} }, { ipBlock: { cidr: 10.0.0.0/8, except: [192.168.0.0/16, 10.0.0.0/8, 10.1.0.0/16] } }, { ipBlock: { cidr: 10.0.0.0/33 } }, { ipBlock: { cidr: 10.0.0.0/8, except: [bad, 10.1.0.0/16] } }] }] }',
      ),
    );
    const from = '/spec/ingress/0/from';
    expect(findings.map(at)).toEqual([
      [`${from}/0`, 'Required value: must specify a peer'],
      [`${from}/1`, 'Forbidden: may not specify both ipBlock and another peer'],
      [
        `${from}/2/ipBlock/except/0`,
        'Invalid value: "192.168.0.0/16": must be a strict subset of `cidr`',
      ],
      [
        `${from}/2/ipBlock/except/1`,
        'Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
      ],
      [`${from}/3/ipBlock/cidr`, 'Invalid value: "10.0.0.0/33": not a valid CIDR'],
      [`${from}/4/ipBlock/except/0`, 'Invalid value: "bad": not a valid CIDR'],
    ]);
  });

  it('has ports by number or name, an end port only after a numeric port it is not below', () => {
    const findings = load(
      policy(
        '{ podSelector: {}, egress: [{ ports: [{ port: 70000 }, { port: http, endPort: 90 }, { port: 80, endPort: 70 }, { endPort: 90 }, { port: "80" }] }], policyTypes: [Ingress, Egress, Ingress] }',
      ),
    );
    const ports = '/spec/egress/0/ports';
    expect(findings.map(at)).toEqual([
      [`${ports}/0/port`, 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
      [`${ports}/1/endPort`, 'Invalid value: 90: may not be specified when `port` is non-numeric'],
      [`${ports}/2/endPort`, 'Invalid value: 80: must be greater than or equal to `port`'],
      [
        `${ports}/3/endPort`,
        'Invalid value: 90: may not be specified when `port` is not specified',
      ],
      [`${ports}/4/port`, 'Invalid value: "80": must contain at least one letter (a-z)'],
      [
        '/spec/policyTypes',
        'Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes',
      ],
    ]);
  });

  it("checks its selectors' label keys", () => {
    const findings = load(policy('{ podSelector: { matchLabels: { "a b": x } } }'));
    expect(findings.map((f) => f.pointer)).toEqual(['/spec/podSelector/matchLabels/a b']);
  });
});

describe('a CIDR block, as ParseCIDRSloppy reads it', () => {
  it('reads both families, leading zeros in IPv4 parts, and clears the host bits', () => {
    expect(parseSloppyCidr('010.0.0.1/8')).toEqual({ bits: 32, network: 10n << 24n, prefix: 8 });
    expect(parseSloppyCidr('::ffff:10.0.0.0/104')?.bits).toBe(128);
    for (const bad of [
      '10.0.0.0',
      '10.0.0.0/',
      '10.0.0.0/33',
      '10.0.0/8',
      'fe80::1%eth0/64',
      '::/129',
    ]) {
      expect([bad, parseSloppyCidr(bad)]).toEqual([bad, undefined]);
    }
    const outer = parseSloppyCidr('2001:db8::/32')!;
    expect(cidrContains(outer, parseSloppyCidr('2001:db8:ffff::/48')!)).toBe(true);
    expect(cidrContains(outer, parseSloppyCidr('2001:db9::/48')!)).toBe(false);
    expect(cidrContains(parseSloppyCidr('10.0.0.0/8')!, parseSloppyCidr('::a00:0/104')!)).toBe(
      false,
    );
  });
});
