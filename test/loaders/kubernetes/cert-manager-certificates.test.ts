/**
 * A cert-manager Certificate, checked as cert-manager's webhook checks it when it is written:
 * the cases of its own table test (`internal/apis/certmanager/validation/certificate_test.go`),
 * against cert-manager's real CRDs (`fixtures/real-crds/cert-manager`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const CRD_DIR = new URL('../../../fixtures/real-crds/cert-manager/crds/', import.meta.url);
const CRDS = readdirSync(CRD_DIR)
  .filter((name) => name.startsWith('cert-manager.io_certificates'))
  .map((name) => ({ path: `crds/${name}`, text: readFileSync(new URL(name, CRD_DIR), 'utf8') }));

/** A Certificate whose spec is the lines given, beside a valid issuer reference. */
const certificate = (spec: string) => `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: { name: web, namespace: apps }
spec:
  issuerRef: { name: letsencrypt, kind: ClusterIssuer }
${spec}`;

const load = (spec: string) =>
  loadManifests([...CRDS, { path: 'certificate.yaml', text: certificate(spec) }])
    .findings.filter((f) => f.file === 'certificate.yaml')
    .map((f) => [f.pointer, f.message]);

const messages = (spec: string) => load(spec).map(([, message]) => message);

describe('a cert-manager Certificate', () => {
  it('takes what cert-manager takes', () => {
    expect(load('  secretName: abc\n  commonName: abc\n')).toEqual([]);
    expect(load('  secretName: abc\n  dnsNames: [example.com]\n')).toEqual([]);
    expect(load("  secretName: abc\n  uris: ['spiffe://cluster.local/ns/a/sa/b']\n")).toEqual([]);
    expect(load('  secretName: abc\n  emailAddresses: [alice@example.com]\n')).toEqual([]);
    expect(load("  secretName: abc\n  ipAddresses: ['127.0.0.1', '::1']\n")).toEqual([]);
    expect(load(`  secretName: abc\n  commonName: ${'a'.repeat(64)}\n`)).toEqual([]);
  });

  it('refuses a secret name that is no DNS subdomain, and a certificate of nothing', () => {
    expect(messages('  secretName: AAA\n  commonName: abc\n')[0]).toMatch(
      /^Invalid value: "AAA": a lowercase RFC 1123 subdomain must consist of/,
    );
    expect(load('  secretName: abc\n')).toEqual([
      [
        '/spec',
        'Invalid value: "": at least one of commonName (from the commonName field or from a literalSubject), dnsNames, emailSANs, ipAddresses, otherNames, or uriSANs must be set',
      ],
    ]);
    expect(messages(`  secretName: abc\n  commonName: ${'a'.repeat(65)}\n`)).toEqual([
      'Too long: may not be more than 64 bytes',
    ]);
  });

  it('refuses an issuer reference of a kind cert-manager does not have, in its group or none', () => {
    const external = (ref: string) =>
      loadManifests([
        ...CRDS,
        {
          path: 'certificate.yaml',
          text: certificate('  secretName: abc\n  commonName: abc\n').replace(
            '{ name: letsencrypt, kind: ClusterIssuer }',
            ref,
          ),
        },
      ]).findings.filter((f) => f.file === 'certificate.yaml');
    expect(external('{ name: abc, kind: AWSPCAClusterIssuer }').map((f) => f.message)).toEqual([
      'Invalid value: "AWSPCAClusterIssuer": must be one of Issuer or ClusterIssuer (did you forget to set spec.issuerRef.group? an external issuer\'s kind is of its own group)',
    ]);
    expect(
      external('{ name: abc, kind: AWSPCAClusterIssuer, group: awspca.cert-manager.io }'),
    ).toEqual([]);
  });

  it('refuses a key size its algorithm does not have, and a signature algorithm of another key', () => {
    expect(
      messages(
        '  secretName: abc\n  commonName: abc\n  privateKey: { algorithm: RSA, size: 1024 }\n',
      ),
    ).toEqual(['Invalid value: 1024: must be between 2048 and 8192 for rsa keyAlgorithm']);
    expect(
      messages('  secretName: abc\n  commonName: abc\n  privateKey: { size: 8196 }\n'),
    ).toEqual(['Invalid value: 8196: must be between 2048 and 8192 for rsa keyAlgorithm']);
    expect(
      messages(
        '  secretName: abc\n  commonName: abc\n  privateKey: { algorithm: ECDSA, size: 100 }\n',
      ),
    ).toEqual(['Unsupported value: 100: supported values: "256", "384", "521"']);
    expect(
      messages(
        '  secretName: abc\n  commonName: abc\n  privateKey: { algorithm: ECDSA }\n  signatureAlgorithm: SHA256WithRSA\n',
      ),
    ).toEqual([
      'Invalid value: "SHA256WithRSA": for key algorithm ECDSA the allowed signature algorithms are [ECDSAWithSHA256 ECDSAWithSHA384 ECDSAWithSHA512]',
    ]);
    expect(
      load(
        '  secretName: abc\n  commonName: abc\n  privateKey: { algorithm: Ed25519 }\n  signatureAlgorithm: PureEd25519\n',
      ),
    ).toEqual([]);
  });

  it('refuses an address that is none, and an email address with more than the address', () => {
    expect(messages("  secretName: abc\n  ipAddresses: ['1.2.3.4/24', '010.0.0.1']\n")).toEqual([
      'Invalid value: "1.2.3.4/24": invalid IP address',
      'Invalid value: "010.0.0.1": invalid IP address',
    ]);
    expect(
      messages(
        "  secretName: abc\n  emailAddresses: [alice.example.com, 'Alice <alice@example.com>']\n",
      ),
    ).toEqual([
      `Invalid value: "alice.example.com": invalid email address: mail: missing '@' or angle-addr`,
      'Invalid value: "Alice <alice@example.com>": invalid email address: make sure the supplied value only contains the email address itself',
    ]);
  });

  it('reads a long email address in time linear in its length', () => {
    // Untrusted input: as a backtracking regular expression, the angle-address check took
    // about 6 s on a "<" then 60,000 "@"; found once, it takes milliseconds.
    const address = `<${'@'.repeat(60_000)}`;
    const started = performance.now();
    const found = messages(`  secretName: abc\n  emailAddresses: ['${address}', ' <a@b> ']\n`);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(found).toEqual([
      `Invalid value: "<${'@'.repeat(59)}... (60001 characters)": invalid email address: write the address alone, local@domain (no scheme, name, spaces or brackets)`,
      'Invalid value: " <a@b> ": invalid email address: make sure the supplied value only contains the email address itself',
    ]);
  });

  it('refuses a duration under an hour, and a renewal before that is not within it (TestValidateDuration)', () => {
    expect(
      load('  secretName: abc\n  commonName: abc\n  duration: 8760h\n  renewBefore: 4380h\n'),
    ).toEqual([]);
    // Go durations have no days.
    expect(messages('  secretName: abc\n  commonName: abc\n  duration: 90d\n')).toEqual([
      'Invalid value: "90d": time: invalid duration "90d": cert-manager reads Go durations (300ms, 1.5h, 2h45m; no days: 90 days is 2160h)',
    ]);
    expect(messages('  secretName: abc\n  commonName: abc\n  duration: 30m\n')).toEqual([
      'Invalid value: "30m0s": certificate duration must be greater than 1h0m0s',
    ]);
    // No duration: 90 days, less than ten years.
    expect(messages('  secretName: abc\n  commonName: abc\n  renewBefore: 87600h\n')).toEqual([
      'Invalid value: "87600h0m0s": certificate duration 2160h0m0s must be greater than renewBefore 87600h0m0s (the duration is 90 days unless given)',
    ]);
    expect(
      messages('  secretName: abc\n  commonName: abc\n  duration: 720h\n  renewBefore: 1s\n'),
    ).toEqual(['Invalid value: "1s": certificate renewBefore must be greater than 5m0s']);
    expect(
      load(
        '  secretName: abc\n  commonName: abc\n  renewBefore: 720h\n  renewBeforePercentage: 50\n',
      ).map(([pointer]) => pointer),
    ).toEqual(['/spec/renewBefore', '/spec/renewBeforePercentage']);
  });

  it('refuses fewer than one revision, a cert-manager annotation on the secret, a format twice, and a keystore without one password', () => {
    expect(messages('  secretName: abc\n  commonName: abc\n  revisionHistoryLimit: 0\n')).toEqual([
      'Invalid value: 0: must not be less than 1',
    ]);
    expect(
      messages(
        "  secretName: abc\n  commonName: abc\n  secretTemplate: { annotations: { 'cert-manager.io/alt-names': x, 'cert-manager.io/allow-direct-injection': 'true' } }\n",
      ),
    ).toEqual([
      'Invalid value: "cert-manager.io/alt-names": cert-manager.io/* annotations are not allowed',
    ]);
    expect(
      load(
        '  secretName: abc\n  commonName: abc\n  additionalOutputFormats: [{ type: CombinedPEM }, { type: CombinedPEM }]\n',
      ),
    ).toEqual([['/spec/additionalOutputFormats/1/type', 'Duplicate value: "CombinedPEM"']]);
    expect(
      messages(
        '  secretName: abc\n  commonName: abc\n  keystores: { pkcs12: { create: true, password: "", passwordSecretRef: { name: s, key: k } } }\n',
      ),
    ).toEqual([
      'Forbidden: exactly one of passwordSecretRef and password must be provided for PKCS#12 keystores; cannot set both',
      'Forbidden: literal password cannot be empty if set on PKCS#12 keystores',
    ]);
  });
});
