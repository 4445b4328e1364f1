import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * Cases of the Gateway API's own validation tests (kubernetes-sigs/gateway-api `tests/cel/*.go`,
 * which create each object against a real API server and match its error text), written as the
 * manifests their Go objects marshal to, against the project's real CRDs
 * (`fixtures/real-crds/gateway-api`). Each expected text is upstream's: cosi must say it as
 * `kubectl apply` would, schema errors included. (All 251 cases of those files were run the same
 * way: every one passes and fails as upstream's API server does but a status write.)
 */

const CRDS = path.join(import.meta.dirname, '../../../fixtures/real-crds/gateway-api/crds');
const crds = readdirSync(CRDS)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => ({ path: `crds/${name}`, text: readFileSync(path.join(CRDS, name), 'utf8') }));

const GATEWAY = 'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway';
const ROUTE = 'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute';
const POLICY = 'apiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy';
const LISTENER = 'listeners: [{ name: http, protocol: HTTP, port: 80 }]';
const TARGET = 'targetRefs: [{ group: group, kind: kind, name: name, sectionName: section }]';

/** Upstream's test, the object's spec, and the texts its error must contain (none: accepted). */
const CASES: readonly (readonly [string, string, string, readonly string[]])[] = [
  [
    'TestValidateGateway: tls config present with http protocol',
    GATEWAY,
    '{ gatewayClassName: foo, listeners: [{ name: http, port: 8080, protocol: HTTP, tls: {} }] }',
    ["tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"],
  ],
  [
    'TestValidateGateway: ip address and hostname in addresses are invalid',
    GATEWAY,
    `{ gatewayClassName: foo, ${LISTENER}, addresses: [{ type: IPAddress, value: "1.2.3.4:8080" }, { type: Hostname, value: "*foo/bar" }] }`,
    ['Invalid value: "1.2.3.4:8080": spec.addresses[0].value in body must be of type ipv4'],
  ],
  [
    'TestGatewayInfrastructureLabels: invalid label value with too many characters',
    GATEWAY,
    `{ gatewayClassName: foo, ${LISTENER}, infrastructure: { labels: { key: ${'a'.repeat(64)} } } }`,
    ['Too long: may not be more than 63'],
  ],
  [
    'TestGatewayInfrastructureLabels: invalid label value with invalid characters',
    GATEWAY,
    `{ gatewayClassName: foo, ${LISTENER}, infrastructure: { labels: { key: v a l u e } } }`,
    [
      "spec.infrastructure.labels.key in body should match '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$'",
    ],
  ],
  [
    'TestHTTPPathMatch: invalid type',
    ROUTE,
    '{ rules: [{ matches: [{ path: { type: FooBar, value: /path } }], backendRefs: [{ name: test, port: 8080 }] }] }',
    ['supported values: "Exact", "PathPrefix", "RegularExpression"'],
  ],
  [
    'TestHTTPRouteCORS: An origin with an invalid port should be denied',
    ROUTE,
    '{ rules: [{ filters: [{ type: CORS, cors: { allowOrigins: ["https://xpto.com:notaport"] } }] }] }',
    [
      'Invalid value: "https://xpto.com:notaport": spec.rules[0].filters[0].cors.allowOrigins[0] in body should match',
    ],
  ],
  [
    'TestHTTPRouteCORS: Using an invalid HTTP method should be denied',
    ROUTE,
    '{ rules: [{ filters: [{ type: CORS, cors: { allowMethods: [BAZINGA] } }] }] }',
    ['Unsupported value: "BAZINGA"'],
  ],
  [
    'TestHTTPRouteTimeouts: invalid timeout unit us is not supported',
    ROUTE,
    '{ rules: [{ timeouts: { request: 100us } }] }',
    [
      'Invalid value: "100us": spec.rules[0].timeouts.request in body should match \'^([0-9]{1,5}(h|m|s|ms)){1,4}$\'',
    ],
  ],
  [
    'TestBackendTLSPolicyValidation: invalid BackendTLSPolicyValidation with missing fields',
    POLICY,
    `{ ${TARGET}, validation: { hostname: "" } }`,
    [
      'spec.validation.hostname in body should be at least 1 chars long',
      'must specify either CACertificateRefs or WellKnownCACertificates',
    ],
  ],
  [
    'TestBackendTLSPolicyValidation: invalid WellKnownCACertificates value',
    POLICY,
    `{ ${TARGET}, validation: { wellKnownCACertificates: MySystem, hostname: foo.example.com } }`,
    [
      "spec.validation.wellKnownCACertificates in body should match '^(System|([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]))$'",
    ],
  ],
  [
    'TestBackendTLSPolicyValidation: valid WellKnownCACertificates',
    POLICY,
    `{ ${TARGET}, validation: { wellKnownCACertificates: System, hostname: foo.example.com } }`,
    [],
  ],
];

describe("the Gateway API's own validation tests", () => {
  const manifests = CASES.map(([, header, spec], i) => ({
    path: `case-${i}.yaml`,
    text: `${header}\nmetadata: { name: case-${i}, namespace: default }\nspec: ${spec}\n`,
  }));
  const findings = loadManifests([...crds, ...manifests]).findings.filter(
    (f) => f.severity === 'error',
  );

  it.each(CASES.map((c, i) => [c[0], i, c[3]] as const))('%s', (_name, i, wanted) => {
    const messages = findings.filter((f) => f.file === `case-${i}.yaml`).map((f) => f.message);
    if (wanted.length === 0) expect(messages).toEqual([]);
    for (const text of wanted) {
      expect(messages.some((message) => message.includes(text))).toBe(true);
    }
  });
});
