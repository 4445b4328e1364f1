import { describe, expect, it } from 'vitest';
import { isValidFormat } from '../../src/loaders/checked-formats.js';
import { loadManifests } from '../../src/loaders/load-manifests.js';
import { requestUriError } from '../../src/loaders/go-request-uri.js';
import type { KubernetesRelease } from '../../src/loaders/kubernetes/kubernetes-release.js';

/**
 * The formats the API server checks in a custom resource (apiextensions'
 * `supportedVersionedFormats`, kube-openapi's `strfmt` registry), each against values Go takes and
 * values it refuses.
 */

const CASES: Record<string, { valid: string[]; invalid: string[] }> = {
  uri: {
    valid: [
      'https://example.com/a?b=c',
      'http://user:pw@host:8080/',
      'mailto:a@b.c',
      '/relative/path',
      's3://bucket/key',
      'http://[::1]:80/',
    ],
    invalid: [
      'not a uri',
      'example.com/path',
      '',
      'http://host:port/',
      'http://#%blah$#@',
      'http://a/%zz',
    ],
  },
  email: {
    valid: [
      'jane@example.com',
      'Jane Doe <jane@example.com>',
      '"jane doe"@example.com',
      'a.b+c@sub.example.org',
      'ops@[10.0.0.1]',
    ],
    invalid: [
      'x',
      'jane@',
      '@example.com',
      'jane@@example.com',
      'jane..doe@example.com',
      'Jane <jane@example.com',
    ],
  },
  hostname: {
    valid: ['example.com', 'localhost', 'a-b.example.london', '1.example.com', 'münchen.de'],
    invalid: [
      '-bad-',
      'example..com',
      'under_score.com',
      'example.c',
      `${'a'.repeat(64)}.com`,
      'a b.com',
    ],
  },
  ipv4: {
    valid: ['10.0.0.1', '010.0.0.1', '255.255.255.255', '::ffff:10.0.0.1'],
    invalid: ['256.1.1.1', '10.0.0', '::1', 'ten.0.0.1'],
  },
  ipv6: {
    valid: ['::1', '2001:db8::ff00:42:8329', '::ffff:10.0.0.1', 'fe80::'],
    invalid: ['10.0.0.1', 'zz::1', 'fe80::1%eth0', '1:2:3:4:5:6:7:8:9'],
  },
  cidr: {
    valid: ['10.0.0.0/8', '10.0.0.1/32', '010.0.0.0/8', '2001:db8::/32', '10.0.0.0/008'],
    invalid: ['10.0.0.0', '10.0.0.0/33', '${CIDR_BLOCK}', '2001:db8::/129', '10.0.0.0/-1'],
  },
  mac: {
    valid: ['00:1a:2B:3c:4d:5e', '00-1a-2b-3c-4d-5e', '001a.2b3c.4d5e', '00:00:5e:00:53:01:00:00'],
    invalid: ['zz:zz', '00:1a:2b:3c:4d', '00:1a-2b:3c:4d:5e', '001a2b3c4d5e'],
  },
  uuid: {
    valid: ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'],
    invalid: ['x', '123e4567-e89b-12d3-a456-42661417400'],
  },
  uuid4: {
    valid: ['550e8400-e29b-41d4-a716-446655440000'],
    invalid: ['123e4567-e89b-12d3-a456-426614174000', '550e8400-e29b-41d4-c716-446655440000'],
  },
  isbn: {
    valid: ['0-321-75104-3', '978-0321751041', '080442957X'],
    invalid: ['0321751044', '9780321751042'],
  },
  creditcard: {
    valid: ['4111 1111 1111 1111', '5500-0000-0000-0004'],
    invalid: ['4111 1111 1111 1112', '1234'],
  },
  ssn: { valid: ['123-45-6789', '123 45 6789'], invalid: ['123456789', '123-45-678'] },
  hexcolor: { valid: ['#fff', 'A0B1C2'], invalid: ['#ffff', 'red'] },
  rgbcolor: {
    valid: ['rgb(255, 0, 10)', 'rgb(0,0,0)'],
    invalid: ['rgb(256,0,0)', 'rgba(0,0,0,1)'],
  },
  bsonobjectid: {
    valid: ['507f1f77bcf86cd799439011'],
    invalid: ['507f1f77bcf86cd79943901', 'zz7f1f77bcf86cd799439011'],
  },
  password: { valid: ['', 'anything at all'], invalid: [] },
  // kube-openapi's `strfmt/kubernetes-extensions.go`: a DNS label in lower case, at most 63
  // characters; a dotted run of them, at most 253.
  'k8s-short-name': {
    valid: ['a', 'a-1', '0', '1--a--b--2', 'a'.repeat(63)],
    invalid: ['', 'A', 'a-', '-a', 'a_b', 'a.b', 'a b', 'a'.repeat(64)],
  },
  'k8s-long-name': {
    valid: ['a', 'a.b', 'a-1.b-2', '1.2.3.4.5', 'a'.repeat(253)],
    invalid: ['', 'A.a', 'a.', '.a', 'a..b', 'a-', 'a.-', 'a:b', 'a'.repeat(254)],
  },
  // kube-openapi's IsDateTime: an offset is needed, case does not matter, any character may
  // stand before the fraction.
  datetime: {
    valid: [
      '2024-01-02T03:04:05Z',
      '2024-01-02t03:04:05z',
      '2024-01-02T03:04:05.123456789123+02:00',
      '2024-01-02T03:04:05,5Z',
    ],
    invalid: [
      'nope',
      '2024-01-02',
      '',
      '2024-01-02T03:04:05',
      '2024-02-30T03:04:05Z',
      '2024-01-02T24:04:05Z',
      '2024-01-02 03:04:05Z',
    ],
  },
};

describe('the formats the API server checks', () => {
  for (const [format, { valid, invalid }] of Object.entries(CASES)) {
    it(`${format}: takes what Go takes and refuses what it refuses`, () => {
      expect(valid.filter((text) => !isValidFormat(text, format))).toEqual([]);
      expect(invalid.filter((text) => isValidFormat(text, format))).toEqual([]);
    });
  }

  it('reads a format without its dashes, and checks none it does not know', () => {
    expect(isValidFormat('nope', 'date-time')).toBe(false);
    expect(isValidFormat('nope', 'ip-v4')).toBe(false);
    expect(isValidFormat('x', 'u-u-i-d')).toBe(false);
    expect(isValidFormat('anything', 'int-or-string')).toBe(true);
  });

  it('refuses, in linear time, a display name of many letters before one that fits no word', () => {
    // 28 letters, then a control character: a nested repetition backtracks about 2^28 times
    // (seconds); read once per character, it takes microseconds.
    const started = performance.now();
    expect(isValidFormat(`${'a'.repeat(28)}\u0001 <jane@example.com>`, 'email')).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    // A space beyond ASCII is still a space between words, and a name's atom may hold one.
    expect(isValidFormat(`${'a\u00a0'.repeat(30)} <jane@example.com>`, 'email')).toBe(true);
    expect(isValidFormat('"Jane \\"J\\" Doe"\u3000Sr. <jane@example.com>', 'email')).toBe(true);
  });

  it("words a request URI's error as Go does", () => {
    expect(requestUriError('example.com/path')).toBe('invalid URI for request');
    expect(requestUriError('http://a b@host/')).toBe('net/url: invalid userinfo');
    expect(requestUriError('http://host:port/')).toBe('invalid port ":port" after host');
  });
});

describe('a custom resource whose fields have formats', () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: networks.example.com }
spec:
  group: example.com
  names: { kind: Network, plural: networks }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                cidr: { type: string, format: cidr }
                gateway: { type: string, format: ipv4 }
                docs: { type: string, format: uri }
                owner: { type: string, format: email }
                ports: { type: array, items: { type: string, format: hostname } }
`;

  it('is refused at each value not of its format, as kube-openapi words it', () => {
    const text = `${crd}---
apiVersion: example.com/v1
kind: Network
metadata: { name: bad }
spec: { cidr: "\${CIDR_BLOCK}", gateway: 10.0.0.256, docs: "see wiki", owner: ops, ports: [ok.example, -no-] }
---
apiVersion: example.com/v1
kind: Network
metadata: { name: good }
spec: { cidr: 10.0.0.0/16, gateway: 10.0.0.1, docs: "https://wiki.example.com/net", owner: ops@example.com, ports: [ok.example] }
`;
    const findings = loadManifests([{ path: 'net.yaml', text }]).findings;
    expect(findings.map((f) => [f.line, f.pointer, f.message])).toEqual([
      [
        28,
        '/spec/cidr',
        'Invalid value: "${CIDR_BLOCK}": spec.cidr in body must be of type cidr: "${CIDR_BLOCK}" (${CIDR_BLOCK} is a template variable: check what the template renders, e.g. clusterctl generate yaml or envsubst)',
      ],
      [
        28,
        '/spec/gateway',
        'Invalid value: "10.0.0.256": spec.gateway in body must be of type ipv4: "10.0.0.256"',
      ],
      [
        28,
        '/spec/docs',
        'Invalid value: "see wiki": spec.docs in body must be of type uri: "see wiki"',
      ],
      [28, '/spec/owner', 'Invalid value: "ops": spec.owner in body must be of type email: "ops"'],
      [
        28,
        '/spec/ports/1',
        'Invalid value: "-no-": spec.ports[1] in body must be of type hostname: "-no-"',
      ],
    ]);
  });
});

describe('a format Kubernetes 1.35 added', () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: routes.example.com }
spec:
  group: example.com
  names: { kind: Route, plural: routes }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                short: { type: string, format: k8s-short-name }
                long: { type: string, format: k8s-long-name }
`;
  const check = (kubernetesVersion: KubernetesRelease) =>
    loadManifests(
      [
        {
          path: 'r.yaml',
          text: `${crd}---\napiVersion: example.com/v1\nkind: Route\nmetadata: { name: r }\nspec: { short: "a-", long: "a..b" }\n`,
        },
      ],
      { kubernetesVersion },
    ).findings.map((f) => [f.pointer, f.message]);

  it('is checked from 1.35, whose API server validates at 1.34, where apiextensions added it', () => {
    expect(check('1.35')).toEqual([
      [
        '/spec/short',
        'Invalid value: "a-": spec.short in body must be of type k8s-short-name: "a-"',
      ],
      [
        '/spec/long',
        'Invalid value: "a..b": spec.long in body must be of type k8s-long-name: "a..b"',
      ],
    ]);
    expect(check('1.36')).toHaveLength(2);
  });

  it('takes any string before, as an older API server drops the format', () => {
    expect(check('1.34')).toEqual([]);
    expect(isValidFormat('a-', 'k8s-short-name', 34)).toBe(true);
    expect(isValidFormat('a-', 'k8s-short-name', 35)).toBe(false);
  });
});

describe("a number past its format's range", () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: pools.example.com }
spec:
  group: example.com
  names: { kind: Pool, plural: pools }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - { rule: "self.size < 0", message: size must be negative }
              properties:
                size: { type: integer, format: int32 }
                ratio: { type: number, format: float }
                total: { type: integer, format: int64 }
                weight: { type: number, format: double }
                sizes: { type: array, items: { type: integer, format: int32 } }
`;
  const check = (spec: string, kubernetesVersion: KubernetesRelease) =>
    loadManifests(
      [
        {
          path: 'p.yaml',
          text: `${crd}---\napiVersion: example.com/v1\nkind: Pool\nmetadata: { name: p }\nspec: ${spec}\n`,
        },
      ],
      { kubernetesVersion },
    ).findings.map((f) => [f.pointer, f.rule, f.message]);

  it('is refused from 1.36, as its kube-openapi words it, and the CEL rules still run', () => {
    expect(
      check(
        '{ size: 3000000000, ratio: 1e39, total: 3000000000, weight: 1e39, sizes: [1, -2147483649] }',
        '1.36',
      ),
    ).toEqual([
      ['/spec', 'FieldValueInvalid', 'Invalid value: size must be negative'],
      [
        '/spec/size',
        'format-range',
        'Invalid value: "": Checked value must be of type integer with format int32 in spec.size',
      ],
      [
        '/spec/ratio',
        'format-range',
        'Invalid value: "": Checked value must be of type number with format float in spec.ratio',
      ],
      [
        '/spec/sizes/1',
        'format-range',
        'Invalid value: "": Checked value must be of type integer with format int32 in spec.sizes[1]',
      ],
    ]);
  });

  it('takes the bounds themselves, and any number before 1.36, which strips the formats of numbers', () => {
    const bounds = '{ size: -2147483648, ratio: 3.4e38, sizes: [2147483647] }';
    expect(check(bounds, '1.36')).toEqual([]);
    expect(check('{ size: 3000000000, ratio: 1e39 }', '1.35').map(([, rule]) => rule)).toEqual([
      'FieldValueInvalid',
    ]);
  });
});

describe("a CRD's default, held to the formats of the run's release", () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: slots.example.com }
spec:
  group: example.com
  names: { kind: Slot, plural: slots }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer, format: int32, default: 3000000000 }
                zone: { type: string, format: k8s-short-name, default: Zone-A }
`;
  const refused = (kubernetesVersion: KubernetesRelease) =>
    loadManifests([{ path: 'crd.yaml', text: crd }], { kubernetesVersion })
      .findings.filter((f) => f.code === 'invalid-schema')
      .map((f) => f.pointer.split('/').at(-2));

  it('is refused only where that release checks the format', () => {
    expect(refused('1.34')).toEqual([]);
    expect(refused('1.35')).toEqual(['zone']);
    expect(refused('1.36')).toEqual(['size', 'zone']);
  });
});

describe('a format under a combinator', () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: addresses.example.com }
spec:
  group: example.com
  names: { kind: Address, plural: addresses }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                either: { type: string, oneOf: [{ format: ipv4 }, { format: ipv6 }] }
                any: { type: string, anyOf: [{ format: ipv4 }, { format: hostname }] }
                notIp: { type: string, not: { format: ipv4 } }
                not: { type: string, format: ipv4 }
`;
  const check = (spec: string) =>
    loadManifests([
      {
        path: 'a.yaml',
        text: `${crd}---\napiVersion: example.com/v1\nkind: Address\nmetadata: { name: a }\nspec: ${spec}\n`,
      },
    ]).findings.map((f) => [f.pointer, f.message]);

  it('chooses the branch by it, as the API server does (Gateway API addresses)', () => {
    // Without the format, both branches of oneOf take any string: every address failed.
    expect(check('{ either: 10.0.0.1, any: 10.0.0.2, notIp: web }')).toEqual([]);
    expect(check('{ either: "fd00::1", any: db.example.com }')).toEqual([]);
  });

  it('refuses a value no branch takes, naming each format it is not', () => {
    expect(check('{ either: nope, any: "-bad-", notIp: 10.0.0.1 }')).toEqual([
      ['/spec/either', 'Invalid value: "nope": spec.either in body must be of type ipv4: "nope"'],
      ['/spec/either', 'Invalid value: "nope": spec.either in body must be of type ipv6: "nope"'],
      [
        '/spec/either',
        'Invalid value: "": "spec.either" must validate one and only one schema (oneOf). Found none valid',
      ],
      ['/spec/any', 'Invalid value: "-bad-": spec.any in body must be of type ipv4: "-bad-"'],
      ['/spec/any', 'Invalid value: "-bad-": spec.any in body must be of type hostname: "-bad-"'],
      ['/spec/any', 'Invalid value: "": "spec.any" must validate at least one schema (anyOf)'],
      ['/spec/notIp', 'Invalid value: "": "spec.notIp" must not validate the schema (not)'],
    ]);
  });

  it('is not looked for in a field named like a combinator, checked once as a field', () => {
    expect(check('{ not: nope }')).toEqual([
      ['/spec/not', 'Invalid value: "nope": spec.not in body must be of type ipv4: "nope"'],
    ]);
  });
});
