/**
 * An ACME issuer's dns01 solver, a Venafi issuer and the rest of an ACME or CA issuer, checked as
 * cert-manager's webhook checks them: the cases of its own table tests
 * (`internal/apis/certmanager/validation/issuer_test.go`, `TestValidateACMEIssuerDNS01Config`,
 * `TestValidateVenafiIssuerConfig` and the nameserver tests), against cert-manager's real CRDs
 * (`fixtures/real-crds/cert-manager`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { splitHostPort } from '../../../src/loaders/kubernetes/cert-manager-dns01.js';

const CRD_DIR = new URL('../../../fixtures/real-crds/cert-manager/crds/', import.meta.url);
const CRDS = readdirSync(CRD_DIR)
  .filter((name) => /issuers\.yaml$/.test(name))
  .map((name) => ({ path: `crds/${name}`, text: readFileSync(new URL(name, CRD_DIR), 'utf8') }));

const load = (spec: string) =>
  loadManifests([
    ...CRDS,
    {
      path: 'issuer.yaml',
      text: `apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata: { name: i }\nspec:\n${spec}`,
    },
  ])
    .findings.filter((f) => f.file === 'issuer.yaml')
    .map((f) => [f.pointer, f.message]);

/** The findings of an ACME issuer whose one solver is `dns01: <dns01>` (a flow mapping). */
const dns01 = (solver: string) =>
  load(`  acme:
    server: https://acme-v02.api.letsencrypt.org/directory
    privateKeySecretRef: { name: account }
    solvers: [{ dns01: ${solver} }]
`).map(([pointer, message]) => [
    String(pointer).replace('/spec/acme/solvers/0/dns01', '') || '/',
    message,
  ]);

const REQUIRED = 'Required value';
const NO_KEY = 'Required value: secret key is required';
const NO_NAME = 'Required value: secret name is required';

describe("an ACME issuer's dns01 solver", () => {
  it('takes the providers as cert-manager documents them', () => {
    for (const solver of [
      '{ cloudflare: { apiTokenSecretRef: { name: cf, key: api-token } } }',
      '{ cloudflare: { email: me@example.com, apiKeySecretRef: { name: cf, key: api-key } } }',
      // Ambient credentials: no keys, and no service account.
      '{ route53: { region: eu-west-1 } }',
      '{ route53: {} }',
      '{ cloudDNS: { project: p } }',
      '{ azureDNS: { subscriptionID: s, resourceGroupName: g, managedIdentity: { clientID: c } } }',
      '{ azureDNS: { subscriptionID: s, resourceGroupName: g, managedIdentity: { resourceID: r } } }',
      '{ azureDNS: { subscriptionID: s, resourceGroupName: g, clientID: c, tenantID: t, clientSecretSecretRef: { name: a, key: b } } }',
      '{ digitalocean: { tokenSecretRef: { name: do, key: token } } }',
      '{ rfc2136: { nameserver: 127.0.0.1 } }',
      '{ rfc2136: { nameserver: "[2001:db8::1]" } }',
      '{ rfc2136: { nameserver: dns.example.com, tsigKeyName: k, tsigAlgorithm: hmacsha512, tsigSecretSecretRef: { name: t, key: s } } }',
      '{ webhook: { groupName: acme.example.com, solverName: mydns } }',
      '{ nameservers: ["8.8.8.8:53", "ns.example.com:53", "https://cloudflare-dns.com/dns-query"], route53: {} }',
      // acme-dns is counted without refusing another provider, as cert-manager counts it.
      '{ acmeDNS: { host: https://auth.example.org, accountSecretRef: { name: a, key: b } }, akamai: { serviceConsumerDomain: d, accessTokenSecretRef: { name: a, key: b }, clientSecretSecretRef: { name: a, key: b }, clientTokenSecretRef: { name: a, key: b } } }',
    ]) {
      expect(dns01(solver), solver).toEqual([]);
    }
  });

  it('refuses a secret it names without the key to read, or with an empty name', () => {
    expect(dns01('{ cloudflare: { apiTokenSecretRef: { name: cf } } }')).toEqual([
      ['/cloudflare/apiTokenSecretRef/key', NO_KEY],
    ]);
    expect(dns01("{ cloudflare: { apiTokenSecretRef: { name: '', key: '' } } }")).toEqual([
      ['/cloudflare/apiTokenSecretRef/name', NO_NAME],
      ['/cloudflare/apiTokenSecretRef/key', NO_KEY],
    ]);
    expect(dns01('{ cloudDNS: { project: p, serviceAccountSecretRef: { name: sa } } }')).toEqual([
      ['/cloudDNS/serviceAccountSecretRef/key', NO_KEY],
    ]);
    expect(dns01('{ route53: { accessKeyIDSecretRef: { name: id } } }')).toEqual([
      ['/route53/accessKeyIDSecretRef/key', NO_KEY],
    ]);
    expect(dns01('{ digitalocean: { tokenSecretRef: { name: do } } }')).toEqual([
      ['/digitalocean/tokenSecretRef/key', NO_KEY],
    ]);
    expect(dns01('{ acmeDNS: { host: h, accountSecretRef: { name: a } } }')).toEqual([
      ['/acmeDNS/accountSecretRef/key', NO_KEY],
    ]);
    expect(
      dns01(
        "{ akamai: { serviceConsumerDomain: '', accessTokenSecretRef: { name: a }, clientSecretSecretRef: { name: b }, clientTokenSecretRef: { name: c } } }",
      ),
    ).toEqual([
      ['/akamai/serviceConsumerDomain', REQUIRED],
      ['/akamai/accessTokenSecretRef/key', NO_KEY],
      ['/akamai/clientSecretSecretRef/key', NO_KEY],
      ['/akamai/clientTokenSecretRef/key', NO_KEY],
    ]);
  });

  it("refuses Cloudflare's credentials given twice or not at all, and an API key without the email", () => {
    expect(dns01('{ cloudflare: {} }')).toEqual([
      ['/cloudflare', 'Required value: apiKeySecretRef or apiTokenSecretRef is required'],
    ]);
    expect(
      dns01(
        '{ cloudflare: { email: e, apiKeySecretRef: { name: a, key: b }, apiTokenSecretRef: { name: a, key: c } } }',
      ),
    ).toEqual([
      ['/cloudflare', 'Forbidden: apiKeySecretRef and apiTokenSecretRef cannot both be specified'],
    ]);
    expect(dns01('{ cloudflare: { apiKeySecretRef: { name: a, key: b } } }')).toEqual([
      ['/cloudflare/email', REQUIRED],
    ]);
  });

  it("refuses Route53's access key ID given twice, and Cloud DNS without its project", () => {
    expect(
      dns01('{ route53: { accessKeyID: AKIA, accessKeyIDSecretRef: { name: a, key: b } } }'),
    ).toEqual([
      ['/route53', 'Required value: accessKeyID and accessKeyIDSecretRef cannot both be specified'],
    ]);
    expect(dns01("{ cloudDNS: { project: '' } }")).toEqual([['/cloudDNS/project', REQUIRED]]);
  });

  it("refuses Azure's client credentials in part, beside a managed identity, and an identity named twice", () => {
    const azure = (fields: string) =>
      dns01(`{ azureDNS: { subscriptionID: s, resourceGroupName: g, ${fields} } }`);
    expect(azure('clientID: c')).toEqual([
      ['/azureDNS/clientSecretSecretRef', REQUIRED],
      ['/azureDNS/tenantID', REQUIRED],
    ]);
    expect(azure('tenantID: t, clientSecretSecretRef: { name: a }')).toEqual([
      ['/azureDNS/clientID', REQUIRED],
      ['/azureDNS/clientSecretSecretRef/key', NO_KEY],
    ]);
    expect(azure('clientID: c, managedIdentity: { clientID: c }')).toEqual([
      ['/azureDNS/clientSecretSecretRef', REQUIRED],
      ['/azureDNS/tenantID', REQUIRED],
      [
        '/azureDNS/managedIdentity',
        'Forbidden: managed identity cannot be used at the same time as clientID, clientSecretSecretRef or tenantID',
      ],
    ]);
    expect(azure('managedIdentity: { tenantID: t, resourceID: r }')).toEqual([
      [
        '/azureDNS/managedIdentity',
        'Forbidden: managedIdentityTenantID and managedIdentityResourceID cannot both be specified',
      ],
      [
        '/azureDNS/managedIdentity',
        'Required value: managedIdentityClientID is required when using managedIdentityTenantID',
      ],
    ]);
    expect(azure('managedIdentity: { clientID: c, resourceID: r }')).toEqual([
      [
        '/azureDNS/managedIdentity',
        'Forbidden: managedIdentityClientID and managedIdentityResourceID cannot both be specified',
      ],
    ]);
    expect(dns01("{ azureDNS: { subscriptionID: '', resourceGroupName: '' } }")).toEqual([
      ['/azureDNS/subscriptionID', REQUIRED],
      ['/azureDNS/resourceGroupName', REQUIRED],
    ]);
  });

  it("refuses an RFC 2136 nameserver it cannot dial, a TSIG algorithm it lacks, and a TSIG key's name or secret alone", () => {
    const unusable =
      'nameserver must be set in the form host:port where host is an IPv4 address, an enclosed IPv6 address or a hostname and port is an optional port number.';
    for (const nameserver of ['2001:db8::1', '[]:53', ':53', '[::1', 'a[b:53']) {
      expect(dns01(`{ rfc2136: { nameserver: "${nameserver}" } }`), nameserver).toEqual([
        ['/rfc2136/nameserver', `Invalid value: "${nameserver}": ${unusable}`],
      ]);
    }
    expect(dns01("{ rfc2136: { nameserver: '' } }")).toEqual([['/rfc2136/nameserver', REQUIRED]]);
    expect(dns01('{ rfc2136: { nameserver: ns:53, tsigAlgorithm: HMACSHA384 } }')).toEqual([
      [
        '/rfc2136/tsigAlgorithm',
        'Unsupported value: "HMACSHA384": supported values: "HMACMD5", "HMACSHA1", "HMACSHA256", "HMACSHA512"',
      ],
    ]);
    expect(dns01('{ rfc2136: { nameserver: ns, tsigKeyName: k } }')).toEqual([
      ['/rfc2136/tsigSecretSecretRef/name', NO_NAME],
      ['/rfc2136/tsigSecretSecretRef/key', NO_KEY],
    ]);
    expect(
      dns01('{ rfc2136: { nameserver: ns, tsigSecretSecretRef: { name: t, key: s } } }'),
    ).toEqual([['/rfc2136/tsigKeyName', REQUIRED]]);
  });

  it('reads a long RFC 2136 nameserver in time linear in its length', () => {
    // Untrusted input: stripping 60,000 trailing brackets with a backtracking regular expression
    // took about 6 s; brackets alone are still no host.
    const started = performance.now();
    expect(dns01(`{ rfc2136: { nameserver: "a${']'.repeat(60_000)}x" } }`)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(dns01('{ rfc2136: { nameserver: "[]" } }')).toEqual([
      [
        '/rfc2136/nameserver',
        'Invalid value: "[]": nameserver must be set in the form host:port where host is an IPv4 address, an enclosed IPv6 address or a hostname and port is an optional port number.',
      ],
    ]);
  });

  it("refuses a webhook without its solver's name, no provider, and a second provider", () => {
    expect(dns01("{ webhook: { groupName: g, solverName: '' } }")).toEqual([
      ['/webhook/solverName', 'Required value: solver name must be specified'],
    ]);
    expect(dns01('{ cnameStrategy: Follow }')).toEqual([
      ['/', 'Required value: no DNS01 provider configured'],
    ]);
    // Counted in cert-manager's order (Cloud DNS before Route53); one refused as a second is
    // not checked further (the webhook's empty solver name is not reported).
    expect(
      dns01(
        "{ route53: {}, cloudDNS: { project: '' }, webhook: { groupName: g, solverName: '' } }",
      ),
    ).toEqual([
      ['/route53', 'Forbidden: may not specify more than one provider type'],
      ['/cloudDNS/project', REQUIRED],
      ['/webhook', 'Forbidden: may not specify more than one provider type'],
    ]);
  });

  it('refuses nameservers that are neither host:port nor https://host', () => {
    expect(dns01('{ route53: {}, nameservers: ["8.8.8.8", "https://", "1.1.1.1:53"] }')).toEqual([
      ['/nameservers/0', 'Invalid value: "8.8.8.8": must be in the format <ip address>:<port>'],
      [
        '/nameservers/1',
        'Invalid value: "https://": must be in the format https://<DoH RFC 8484 server address>',
      ],
    ]);
  });
});

describe("an ACME solver's wait, an external account's key, a CA issuer's URLs and a Venafi issuer", () => {
  const ACME = `  acme:
    server: https://acme.example.org/directory
    privateKeySecretRef: { name: account }
`;
  it('refuses a negative or unreadable wait instead of the self check', () => {
    expect(
      load(`${ACME}    solvers:
      - { http01: { ingress: {} }, waitInsteadOfSelfCheck: -30s }
      - { http01: { ingress: {} }, waitInsteadOfSelfCheck: 1d }
      - { http01: { ingress: {} }, waitInsteadOfSelfCheck: 2m }
`),
    ).toEqual([
      [
        '/spec/acme/solvers/0/waitInsteadOfSelfCheck',
        'Invalid value: "-30s": waitInsteadOfSelfCheck must not be negative',
      ],
      [
        '/spec/acme/solvers/1/waitInsteadOfSelfCheck',
        'Invalid value: "1d": time: invalid duration "1d": cert-manager reads Go durations (300ms, 1.5h, 2h45m; no days: 90 days is 2160h)',
      ],
    ]);
  });

  it("refuses an external account binding's secret without its key", () => {
    expect(
      load(`${ACME}    externalAccountBinding: { keyID: id, keySecretRef: { name: eab } }\n`),
    ).toEqual([['/spec/acme/externalAccountBinding/keySecretRef/key', NO_KEY]]);
  });

  it("refuses a CA issuer's empty OCSP server or issuing certificate URL", () => {
    expect(
      load(
        "  ca: { secretName: ca, ocspServers: ['', http://ocsp.example.org], issuingCertificateURLs: [''] }\n",
      ),
    ).toEqual([
      [
        '/spec/ca/ocspServers/0',
        'Invalid value: "": must be a valid URL, e.g., http://ocsp.int-x3.letsencrypt.org',
      ],
      ['/spec/ca/issuingCertificateURLs/0', 'Invalid value: "": must be a valid URL'],
    ]);
  });

  it('takes a Venafi issuer of one kind, and refuses none, two, or one without what it needs', () => {
    expect(
      load('  venafi: { zone: z, cloud: { apiTokenSecretRef: { name: t, key: k } } }\n'),
    ).toEqual([]);
    // The CRD's own rule runs beside cert-manager's webhook errors, which come after it.
    expect(load("  venafi: { zone: '' }\n")).toEqual([
      ['/spec/venafi', 'Required value: please supply one of: tpp, cloud, ngts'],
      ['/spec/venafi', 'Invalid value: exactly one of tpp, cloud, or ngts must be configured'],
      ['/spec/venafi/zone', REQUIRED],
    ]);
    expect(
      load(`  venafi:
    zone: z
    tpp: { url: '', caBundle: Zm9v, caBundleSecretRef: { name: ca }, credentialsRef: { name: c } }
    ngts: { tsgID: '', credentialsRef: { name: '' } }
`),
    ).toEqual([
      ['/spec/venafi', 'Forbidden: please supply one of: tpp, cloud, ngts'],
      ['/spec/venafi', 'Invalid value: exactly one of tpp, cloud, or ngts must be configured'],
      [
        '/spec/venafi/tpp',
        'Forbidden: may not specify more than one of caBundle/caBundleSecretRef as TPP CA Bundle',
      ],
      ['/spec/venafi/tpp/url', REQUIRED],
      ['/spec/venafi/ngts/tsgID', REQUIRED],
      ['/spec/venafi/ngts/credentialsRef/name', REQUIRED],
    ]);
  });
});

describe("Go's net.SplitHostPort", () => {
  it('splits host:port and [host]:port, and says why anything else is neither', () => {
    expect(splitHostPort('8.8.8.8:53')).toEqual({ host: '8.8.8.8' });
    expect(splitHostPort('[2001:db8::1]:53')).toEqual({ host: '2001:db8::1' });
    expect(splitHostPort(':53')).toEqual({ host: '' });
    expect(splitHostPort('8.8.8.8').error).toBe('missing port in address');
    expect(splitHostPort('[::1]').error).toBe('missing port in address');
    expect(splitHostPort('2001:db8::1').error).toBe('too many colons in address');
    expect(splitHostPort('[::1]:x:53').error).toBe('too many colons in address');
    expect(splitHostPort('[::1').error).toBe("missing ']' in address");
    expect(splitHostPort('a[b:53').error).toBe("unexpected '[' in address");
    expect(splitHostPort('a]b:53').error).toBe("unexpected ']' in address");
  });
});
