/**
 * A cert-manager Issuer or ClusterIssuer, checked as cert-manager's webhook checks it when it is
 * written: the cases of its own table test (`internal/apis/certmanager/validation/issuer_test.go`),
 * against cert-manager's real CRDs (`fixtures/real-crds/cert-manager`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const CRD_DIR = new URL('../../../fixtures/real-crds/cert-manager/crds/', import.meta.url);
const CRDS = readdirSync(CRD_DIR)
  .filter((name) => /issuers\.yaml$/.test(name))
  .map((name) => ({ path: `crds/${name}`, text: readFileSync(new URL(name, CRD_DIR), 'utf8') }));

/** A ClusterIssuer whose spec is the lines given. */
const issuer = (spec: string) => `apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata: { name: letsencrypt }
spec:
${spec}`;

const load = (spec: string) =>
  loadManifests([...CRDS, { path: 'issuer.yaml', text: issuer(spec) }])
    .findings.filter((f) => f.file === 'issuer.yaml')
    .map((f) => [f.pointer, f.message]);

const messages = (spec: string) => load(spec).map(([, message]) => message);
/** What the API server adds when an error kept the CRD's CEL rules from running. */
const RULES_NOT_CHECKED =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

const ACME = `  acme:
    server: https://acme-v02.api.letsencrypt.org/directory
    privateKeySecretRef: { name: letsencrypt-account }
`;

describe('a cert-manager issuer', () => {
  it('takes what cert-manager takes', () => {
    expect(
      load(`${ACME}    solvers: [{ http01: { ingress: { ingressClassName: nginx } } }]\n`),
    ).toEqual([]);
    expect(load('  selfSigned: {}\n')).toEqual([]);
    expect(load('  ca: { secretName: root-ca }\n')).toEqual([]);
    // Vault: several ways to authenticate may be given at once.
    expect(
      load(`  vault:
    server: https://vault.example.org
    path: pki/sign/example
    auth:
      tokenSecretRef: { name: token, key: token }
      kubernetes: { role: r, serviceAccountRef: { name: sa } }
`),
    ).toEqual([]);
  });

  it('refuses no issuer type, or two', () => {
    expect(load('  {}\n')).toEqual([
      ['/spec', 'Required value: at least one issuer must be configured'],
    ]);
    expect(messages(`${ACME}  selfSigned: {}\n`)).toEqual([
      'Forbidden: may not specify more than one issuer type',
    ]);
  });

  it('refuses an ACME issuer without its server, a solver of no type or two, and an Ingress named twice', () => {
    expect(
      messages(`  acme:
    server: ''
    privateKeySecretRef: { name: '' }
    solvers:
      - {}
      - { http01: { ingress: { class: nginx, name: web } } }
      - { http01: {} }
`),
    ).toEqual([
      'Required value: acme server URL is a required field',
      'Required value: private key secret name is a required field',
      'Required value: no solver type configured',
      "Forbidden: only one of 'ingressClassName', 'name' or 'class' should be specified",
      'Required value: no HTTP01 solver type configured',
    ]);
    expect(
      load(
        `${ACME}    solvers: [{ dns01: { cloudflare: { apiTokenSecretRef: { name: a, key: b } }, route53: { region: eu-west-1 } } }]\n`,
      ),
    ).toEqual([
      [
        '/spec/acme/solvers/0/dns01/route53',
        'Forbidden: may not specify more than one provider type',
      ],
    ]);
    expect(
      messages(
        `${ACME}    solvers: [{ http01: { gatewayHTTPRoute: { serviceType: LoadBalancer, parentRefs: [{ name: gw }] } } }]\n`,
      ),
    ).toEqual(['Invalid value: "LoadBalancer": must be empty, "ClusterIP" or "NodePort"']);
  });

  it("refuses a CA issuer without its secret, and a Vault issuer's missing fields, '..' paths and lone client key", () => {
    // The CRD requires the secret's name; cert-manager, that it is not empty.
    // A missing field the CRD requires keeps its rules from running, and the API server says so.
    expect(load('  ca: {}\n')).toEqual([
      ['', RULES_NOT_CHECKED],
      ['/spec/ca/secretName', 'Required value'],
    ]);
    expect(load("  ca: { secretName: '' }\n")).toEqual([['/spec/ca/secretName', 'Required value']]);
    expect(
      messages(`  vault:
    server: https://vault.example.org
    path: pki/../sign
    clientKeySecretRef: { name: k }
    auth:
      kubernetes: { role: '', secretRef: { name: s }, serviceAccountRef: { name: sa } }
      aws: { role: r, serviceAccountRef: { name: sa } }
`),
    ).toEqual([
      'clientCertSecretRef must be provided when defining the clientKeySecretRef',
      `Invalid value: "pki/../sign": must not contain '..' path segments`,
      'Forbidden: please supply one of: secretRef, serviceAccountRef',
      'Required value',
      'Required value: iamRoleArn is required when using serviceAccountRef for IRSA',
    ]);
    expect(messages('  vault: { server: s, path: p, auth: {} }\n')).toEqual([
      'Required value: please supply one of: appRole, kubernetes, tokenSecretRef, clientCertificate, aws',
    ]);
  });

  it('refuses a CA bundle that holds no certificate that parses (validateCABundleNotEmpty)', () => {
    // A self-signed CA made with openssl for this test; the bundle is base64 of PEM (a []byte).
    const pem = readFileSync(new URL('../../fixtures/pem/test-ca.pem', import.meta.url), 'utf8');
    const bundle = (text: string) => Buffer.from(text).toString('base64');
    const vault = (caBundle: string) => `  vault:
    server: https://vault.example.org
    path: pki/sign/example
    caBundle: ${caBundle}
    auth: { tokenSecretRef: { name: token, key: token } }
`;
    expect(load(vault(bundle(pem)))).toEqual([]);
    // Other blocks and text around it are skipped, as Go's AppendCertsFromPEM skips them.
    expect(
      load(
        vault(bundle(`# root\n-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n${pem}`)),
      ),
    ).toEqual([]);
    const none = "cert bundle didn't contain any valid certificates";
    expect(load(vault(bundle('not a certificate')))).toEqual([
      ['/spec/vault/caBundle', `Invalid value: "<snip>": ${none}`],
    ]);
    // A certificate block whose body is not a certificate: a key pasted in the wrong place.
    const broken = pem.replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA');
    expect(broken).not.toBe(pem);
    expect(load(vault(bundle(broken)))).toEqual([
      ['/spec/vault/caBundle', `Invalid value: "<snip>": ${none}`],
    ]);
    expect(
      load(
        `${ACME}    caBundle: ${bundle('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n')}\n`,
      ),
    ).toEqual([['/spec/acme/caBundle', `Invalid value: "": ${none}`]]);
    // With a secret as well: both fields are named, as cert-manager names them.
    expect(
      load(
        vault(bundle(pem)).replace('    auth:', '    caBundleSecretRef: { name: ca }\n    auth:'),
      ),
    ).toEqual([
      [
        '/spec/vault/caBundle',
        'Invalid value: "<snip>": specified caBundle and caBundleSecretRef cannot be used together',
      ],
      [
        '/spec/vault/caBundleSecretRef',
        'Invalid value: "ca": specified caBundleSecretRef and caBundle cannot be used together',
      ],
    ]);
  });

  it('reads a CA bundle of many unended blocks in linear time, a certificate after them found', () => {
    const pem = readFileSync(new URL('../../fixtures/pem/test-ca.pem', import.meta.url), 'utf8');
    const bundle = (text: string) => Buffer.from(text).toString('base64');
    const vault = (caBundle: string) => `  vault:
    server: https://vault.example.org
    path: pki/sign/example
    caBundle: ${caBundle}
    auth: { tokenSecretRef: { name: token, key: token } }
`;
    // Each BEGIN line no END follows was searched to the end of the text: 360 KB took 7 s.
    const unended = '-----BEGIN CERTIFICATE-----\n'.repeat(20_000);
    const started = performance.now();
    expect(load(vault(bundle(unended)))).toEqual([
      [
        '/spec/vault/caBundle',
        `Invalid value: "<snip>": cert bundle didn't contain any valid certificates`,
      ],
    ]);
    expect(performance.now() - started).toBeLessThan(2000);
    // The certificate after them still counts; one of another type ends no CERTIFICATE block.
    expect(load(vault(bundle(`${'-----BEGIN X-----\n'.repeat(100)}${pem}`)))).toEqual([]);
    expect(
      load(vault(bundle(`-----BEGIN CERTIFICATE-----\r\n${pem.split('\n').slice(1).join('\n')}`))),
    ).toEqual([]);
  });
});
