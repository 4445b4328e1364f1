import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { cidrWarnings, ipAddressWarning } from '../../../src/loaders/kubernetes/ip-warnings.js';
import type { KubernetesRelease } from '../../../src/loaders/kubernetes/kubernetes-release.js';

/**
 * The API server's warnings for IP addresses and CIDR blocks in forms it means to refuse
 * (apimachinery `GetWarningsForIP` / `GetWarningsForCIDR`), with upstream's own test cases
 * (`validation/ip_test.go`, `pkg/api/pod/warnings_test.go`), their field paths left out as cosi
 * gives a warning at its field.
 */

describe('GetWarningsForIP', () => {
  it.each([
    ['192.12.2.2', undefined],
    ['2001:db8::2', undefined],
    [
      '192.012.2.2',
      'non-standard IP address "192.012.2.2" will be considered invalid in a future Kubernetes release: use "192.12.2.2"',
    ],
    [
      '::ffff:192.12.2.2',
      'non-standard IP address "::ffff:192.12.2.2" will be considered invalid in a future Kubernetes release: use "192.12.2.2"',
    ],
    [
      '2001:db8:0:0::2',
      'IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")',
    ],
    [
      '2001:0DB8:0:1:0:0:0:1',
      'IPv6 address "2001:0DB8:0:1:0:0:0:1" should be in RFC 5952 canonical format ("2001:db8:0:1::1")',
    ],
    // The first of two equal runs of zeros is the one cut; a single zero group is kept.
    [
      '2001:db8:0:0:1:0:0:1',
      'IPv6 address "2001:db8:0:0:1:0:0:1" should be in RFC 5952 canonical format ("2001:db8::1:0:0:1")',
    ],
    ['2001:db8:0:1:2:3:4:5', undefined],
    ['not-an-ip', undefined],
  ])('%s', (address, warning) => {
    expect(ipAddressWarning(address)).toBe(warning);
  });
});

describe('GetWarningsForCIDR', () => {
  it.each([
    ['192.12.2.0/24', []],
    ['2001:db8::/64', []],
    [
      '192.012.2.0/24',
      [
        'non-standard CIDR value "192.012.2.0/24" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"',
      ],
    ],
    [
      '192.12.2.0/024',
      [
        'non-standard CIDR value "192.12.2.0/024" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"',
      ],
    ],
    [
      '::ffff:192.12.2.0/120',
      [
        'non-standard CIDR value "::ffff:192.12.2.0/120" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"',
      ],
    ],
    [
      '192.12.2.8/24',
      [
        'CIDR value "192.12.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)',
      ],
    ],
    [
      '192.012.2.8/24',
      [
        'CIDR value "192.012.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)',
        'non-standard CIDR value "192.012.2.8/24" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"',
      ],
    ],
    [
      '2001:db8:0:0::/64',
      [
        'IPv6 CIDR value "2001:db8:0:0::/64" should be in RFC 5952 canonical format ("2001:db8::/64")',
      ],
    ],
    ['not/a-cidr', []],
  ])('%s', (cidr, warnings) => {
    expect(cidrWarnings(cidr)).toEqual(warnings);
  });
});

describe('IP warnings in manifests', () => {
  const warnings = (text: string, version?: KubernetesRelease) =>
    loadManifests(
      [{ path: 'ip.yaml', text }],
      version === undefined ? {} : { kubernetesVersion: version },
    )
      .findings.filter((f: Finding) => f.code === 'api-warning')
      .map((f) => [f.pointer, f.message]);
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      dnsConfig: { nameservers: ["1.2.3.4", "05.06.07.08"] }
      hostAliases: [{ ip: "::ffff:1.2.3.4", hostnames: [legacy] }]
      containers: [{ name: web, image: nginx }]
`;
  const service = `apiVersion: v1
kind: Service
metadata: { name: db, namespace: default }
spec:
  type: LoadBalancer
  clusterIP: 10.096.0.10
  externalIPs: ["2001:db8:0:0::2"]
  loadBalancerSourceRanges: ["192.12.2.8/24"]
  ports: [{ port: 5432 }]
`;
  const endpoints = (labels: string) => `apiVersion: v1
kind: Endpoints
metadata: { name: db, namespace: default, labels: ${labels} }
subsets: [{ addresses: [{ ip: 10.0.0.05 }], ports: [{ port: 5432 }] }]
`;

  it("warns of a pod template's nameservers and host aliases (upstream's dubious IP address formats)", () => {
    expect(warnings(deployment, '1.35')).toEqual([
      [
        '/spec/template/spec/dnsConfig/nameservers/1',
        'non-standard IP address "05.06.07.08" will be considered invalid in a future Kubernetes release: use "5.6.7.8"',
      ],
      [
        '/spec/template/spec/hostAliases/0/ip',
        'non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"',
      ],
    ]);
  });

  it("warns of a Service's cluster, external and source addresses, and of Endpoints no controller wrote", () => {
    expect(warnings(`${service}---\n${endpoints('{}')}`, '1.35')).toEqual([
      [
        '/spec/clusterIP',
        'non-standard IP address "10.096.0.10" will be considered invalid in a future Kubernetes release: use "10.96.0.10"',
      ],
      [
        '/spec/externalIPs/0',
        'IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")',
      ],
      [
        '/spec/loadBalancerSourceRanges/0',
        'CIDR value "192.12.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)',
      ],
      [
        '/subsets/0/addresses/0/ip',
        'non-standard IP address "10.0.0.05" will be considered invalid in a future Kubernetes release: use "10.0.0.5"',
      ],
    ]);
    expect(
      warnings(endpoints('{ endpoints.kubernetes.io/managed-by: endpoint-controller }'), '1.35'),
    ).toEqual([]);
  });

  it('are errors from 1.36, whose API server refuses them (StrictIPCIDRValidation on by default)', () => {
    const found = (text: string) =>
      loadManifests([{ path: 'ip.yaml', text }], { kubernetesVersion: '1.36' }).findings.map(
        (f) => [f.code, f.pointer, f.message],
      );
    expect(found(`${deployment}---\n${service}---\n${endpoints('{}')}`)).toEqual([
      [
        'schema-violation',
        '/spec/template/spec/dnsConfig/nameservers/1',
        'Invalid value: "05.06.07.08": must not have leading 0s',
      ],
      [
        'schema-violation',
        '/spec/template/spec/hostAliases/0/ip',
        'Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address',
      ],
      [
        'schema-violation',
        '/spec/clusterIP',
        'Invalid value: "10.096.0.10": must not have leading 0s',
      ],
      // An IPv6 address's form is still only a warning.
      [
        'api-warning',
        '/spec/externalIPs/0',
        'IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")',
      ],
      [
        'schema-violation',
        '/spec/loadBalancerSourceRanges/0',
        'Invalid value: "192.12.2.8/24": must not have bits set beyond the prefix length',
      ],
      [
        'schema-violation',
        '/subsets/0/addresses/0/ip',
        'Invalid value: "10.0.0.05": must not have leading 0s',
      ],
    ]);
  });

  it("warns of a NetworkPolicy's ipBlock from 1.33, and refuses its cidr from 1.36", () => {
    const policy = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: { name: db, namespace: default }
spec:
  podSelector: {}
  ingress: [{ from: [{ ipBlock: { cidr: 10.0.0.5/8, except: [10.1.0.0/016] } }] }]
`;
    const found = (version: KubernetesRelease) =>
      loadManifests([{ path: 'np.yaml', text: policy }], {
        kubernetesVersion: version,
      }).findings.map((f) => [f.code, f.pointer, f.message]);
    const except = (words: string) => [
      'api-warning',
      '/spec/ingress/0/from/0/ipBlock/except/0',
      `non-standard CIDR value "10.1.0.0/016" ${words}: use "10.1.0.0/16"`,
    ];
    expect(found('1.35')).toEqual([
      [
        'api-warning',
        '/spec/ingress/0/from/0/ipBlock/cidr',
        'CIDR value "10.0.0.5/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.5/32"?)',
      ],
      except('will be considered invalid in a future Kubernetes release'),
    ]);
    expect(found('1.36')).toEqual([
      [
        'schema-violation',
        '/spec/ingress/0/from/0/ipBlock/cidr',
        'Invalid value: "10.0.0.5/8": must not have bits set beyond the prefix length',
      ],
      // An exception is only warned of, in 1.36's words.
      except('is invalid'),
    ]);
    expect(found('1.32')).toEqual([]);
  });

  it('gives none before 1.33, whose API server words them otherwise', () => {
    expect(warnings(`${deployment}---\n${service}---\n${endpoints('{}')}`, '1.32')).toEqual([]);
  });
});
