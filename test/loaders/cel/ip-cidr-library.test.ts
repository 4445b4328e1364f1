import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { runExpression } from './run-expression.js';

/** `[name, expression, expected]`: a value, `{ 'net.IP': text }`, or `{ error: message }`. */
type Case = [string, string, unknown];

const table = (cases: Case[]) => cases.map(([name, expr, expected]) => ({ name, expr, expected }));

const parseError = (input: string, reason: string) => ({
  error: `IP Address ${JSON.stringify(input)} parse error during conversion from string: ParseAddr(${JSON.stringify(input)}): ${reason}`,
});

// Ported from k8s.io/apiserver pkg/cel/library/ip_test.go, TestIP (Kubernetes 1.30 library;
// header: Copyright 2023 The Kubernetes Authors). Left out: `isIP(cidr(...))`, a compile error
// there, a run-time one here.
const TEST_IP: Case[] = [
  ['parse ipv4', 'ip("192.168.0.1")', { 'net.IP': '192.168.0.1' }],
  ['type of IP is net.IP', 'type(ip("192.168.0.1")) == net.IP', true],
  [
    'parse invalid ipv4',
    'ip("192.168.0.1.0")',
    parseError('192.168.0.1.0', 'IPv4 address too long'),
  ],
  ['isIP valid ipv4', 'isIP("192.168.0.1")', true],
  ['isIP invalid ipv4', 'isIP("192.168.0.1.0")', false],
  ['ip.isCanonical valid ipv4', 'ip.isCanonical("127.0.0.1")', true],
  [
    'ip.isCanonical invalid ipv4',
    'ip.isCanonical("127.0.0.1.0")',
    parseError('127.0.0.1.0', 'IPv4 address too long'),
  ],
  ['ipv4 family', 'ip("192.168.0.1").family()', 4n],
  ['ipv4 isUnspecified true', 'ip("0.0.0.0").isUnspecified()', true],
  ['ipv4 isUnspecified false', 'ip("127.0.0.1").isUnspecified()', false],
  ['ipv4 isLoopback true', 'ip("127.0.0.1").isLoopback()', true],
  ['ipv4 isLoopback false', 'ip("1.2.3.4").isLoopback()', false],
  ['ipv4 isLinkLocalMulticast true', 'ip("224.0.0.1").isLinkLocalMulticast()', true],
  ['ipv4 isLinkLocalMulticast false', 'ip("224.0.1.1").isLinkLocalMulticast()', false],
  ['ipv4 isLinkLocalUnicast true', 'ip("169.254.169.254").isLinkLocalUnicast()', true],
  ['ipv4 isLinkLocalUnicast false', 'ip("192.168.0.1").isLinkLocalUnicast()', false],
  ['ipv4 isGlobalUnicast true', 'ip("192.168.0.1").isGlobalUnicast()', true],
  ['ipv4 isGlobalUnicast false', 'ip("255.255.255.255").isGlobalUnicast()', false],
  ['parse ipv6', 'ip("2001:db8::68")', { 'net.IP': '2001:db8::68' }],
  [
    'parse invalid ipv6',
    'ip("2001:db8:::68")',
    parseError(
      '2001:db8:::68',
      'each colon-separated field must have at least one digit (at ":68")',
    ),
  ],
  ['isIP valid ipv6', 'isIP("2001:db8::68")', true],
  ['isIP invalid ipv6', 'isIP("2001:db8:::68")', false],
  ['ip.isCanonical valid ipv6', 'ip.isCanonical("2001:db8::68")', true],
  ['ip.isCanonical non-canonical ipv6', 'ip.isCanonical("2001:DB8::68")', false],
  [
    'ip.isCanonical invalid ipv6',
    'ip.isCanonical("2001:db8:::68")',
    parseError(
      '2001:db8:::68',
      'each colon-separated field must have at least one digit (at ":68")',
    ),
  ],
  ['ipv6 family', 'ip("2001:db8::68").family()', 6n],
  ['ipv6 isUnspecified true', 'ip("::").isUnspecified()', true],
  ['ipv6 isUnspecified false', 'ip("::1").isUnspecified()', false],
  ['ipv6 isLoopback true', 'ip("::1").isLoopback()', true],
  ['ipv6 isLoopback false', 'ip("2001:db8::abcd").isLoopback()', false],
  ['ipv6 isLinkLocalMulticast true', 'ip("ff02::1").isLinkLocalMulticast()', true],
  ['ipv6 isLinkLocalMulticast false', 'ip("fd00::1").isLinkLocalMulticast()', false],
  ['ipv6 isLinkLocalUnicast true', 'ip("fe80::1").isLinkLocalUnicast()', true],
  ['ipv6 isLinkLocalUnicast false', 'ip("fd80::1").isLinkLocalUnicast()', false],
  ['ipv6 isGlobalUnicast true', 'ip("2001:db8::abcd").isGlobalUnicast()', true],
  ['ipv6 isGlobalUnicast false', 'ip("ff00::1").isGlobalUnicast()', false],
  ['converting an IP address to a string', 'string(ip("192.168.0.1"))', '192.168.0.1'],
];

const cidrError = (input: string, reason: string) => ({
  error: `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(input)}): ${reason}`,
});

// Ported from k8s.io/apiserver pkg/cel/library/cidr_test.go, TestCIDR (Kubernetes 1.30
// library; header: Copyright 2023 The Kubernetes Authors).
const TEST_CIDR: Case[] = [
  ['parse ipv4', 'cidr("192.168.0.0/24")', { 'net.CIDR': '192.168.0.0/24' }],
  ['type of CIDR is net.CIDR', 'type(cidr("192.168.0.0/24")) == net.CIDR', true],
  [
    'parse invalid ipv4',
    'cidr("192.168.0.0/")',
    cidrError('192.168.0.0/', 'bad bits after slash: ""'),
  ],
  ['contains IP ipv4 (IP)', 'cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', true],
  ['does not contain IP ipv4 (IP)', 'cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', false],
  ['contains IP ipv4 (string)', 'cidr("192.168.0.0/24").containsIP("192.168.0.1")', true],
  ['does not contain IP ipv4 (string)', 'cidr("192.168.0.0/24").containsIP("192.168.1.1")', false],
  [
    'contains CIDR ipv4 (CIDR)',
    'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))',
    true,
  ],
  [
    'contains CIDR ipv4 (CIDR) (/32)',
    'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))',
    true,
  ],
  [
    'does not contain IP ipv4 (CIDR)',
    'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))',
    false,
  ],
  [
    'does not contain IP ipv4 (CIDR) (/32)',
    'cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))',
    false,
  ],
  ['contains CIDR ipv4 (string)', 'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', true],
  [
    'does not contain CIDR ipv4 (string)',
    'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")',
    false,
  ],
  ['returns IP ipv4', 'cidr("192.168.0.0/24").ip()', { 'net.IP': '192.168.0.0' }],
  ['masks masked ipv4', 'cidr("192.168.0.0/24").masked()', { 'net.CIDR': '192.168.0.0/24' }],
  ['masks unmasked ipv4', 'cidr("192.168.0.1/24").masked()', { 'net.CIDR': '192.168.0.0/24' }],
  ['returns prefix length ipv4', 'cidr("192.168.0.0/24").prefixLength()', 24n],
  ['parse ipv6', 'cidr("2001:db8::/32")', { 'net.CIDR': '2001:db8::/32' }],
  [
    'parse invalid ipv6',
    'cidr("2001:db8::/")',
    cidrError('2001:db8::/', 'bad bits after slash: ""'),
  ],
  ['contains IP ipv6 (IP)', 'cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', true],
  ['does not contain IP ipv6 (IP)', 'cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', false],
  ['contains IP ipv6 (string)', 'cidr("2001:db8::/32").containsIP("2001:db8::1")', true],
  ['does not contain IP ipv6 (string)', 'cidr("2001:db8::/32").containsIP("2001:dc8::1")', false],
  ['contains CIDR ipv6 (CIDR)', 'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', true],
  [
    'does not contain IP ipv6 (CIDR)',
    'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))',
    false,
  ],
  ['contains CIDR ipv6 (string)', 'cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', true],
  [
    'does not contain CIDR ipv6 (string)',
    'cidr("2001:db8::/32").containsCIDR("2001:db8::/31")',
    false,
  ],
  ['returns IP ipv6', 'cidr("2001:db8::/32").ip()', { 'net.IP': '2001:db8::' }],
  ['masks masked ipv6', 'cidr("2001:db8::/32").masked()', { 'net.CIDR': '2001:db8::/32' }],
  ['masks unmasked ipv6', 'cidr("2001:db8:1::/32").masked()', { 'net.CIDR': '2001:db8::/32' }],
  ['returns prefix length ipv6', 'cidr("2001:db8::/32").prefixLength()', 32n],
  ['converting a CIDR to a string', 'string(cidr("192.168.0.0/24"))', '192.168.0.0/24'],
];

// cosi's own cases: the parsing rules the library's comments state (Go's netip), equality.
const PARSING: Case[] = [
  ['no leading zeros in IPv4', 'isIP("192.168.000.1")', false],
  ['no zones', 'isIP("fe80::1%eth0")', false],
  ['no IPv4-mapped IPv6 addresses', 'isIP("::ffff:1.2.3.4")', false],
  ['an embedded IPv4 tail elsewhere', 'isIP("64:ff9b::1.2.3.4")', true],
  ['no five-digit groups', 'isIP("2001:db8::12345")', false],
  ['no :: standing for nothing', 'isIP("1:2:3:4::5:6:7:8")', false],
  ['no two ::', 'isIP("1::2::3")', false],
  ['no empty string', 'isIP("")', false],
  [
    'a zone message',
    'ip("fe80::1%eth0")',
    { error: 'IP address "fe80::1%eth0" with zone value is not allowed' },
  ],
  [
    'a mapped message',
    'ip("::ffff:1.2.3.4")',
    { error: 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed' },
  ],
  [
    'canonical IPv6 is lower case and compressed',
    'string(ip("2001:0DB8:0:0:0:0:0:1"))',
    '2001:db8::1',
  ],
  [
    'one zero group is not compressed',
    'string(ip("2001:db8:0:1:1:1:1:1"))',
    '2001:db8:0:1:1:1:1:1',
  ],
  ['the first of equal zero runs is compressed', 'string(ip("1:0:0:2:0:0:3:4"))', '1::2:0:0:3:4'],
  ['the longest zero run is compressed', 'string(ip("1:0:2:0:0:0:3:4"))', '1:0:2::3:4'],
  ['isCanonical refuses uncompressed zeros', 'ip.isCanonical("2001:db8::0:0:0:abcd")', false],
  ['addresses are equal however written', 'ip("2001:DB8::1") == ip("2001:db8:0::1")', true],
  ['different addresses are not equal', 'ip("10.0.0.1") == ip("10.0.0.2")', false],
  ['prefixes compare address and length', 'cidr("10.0.0.1/8") == cidr("10.0.0.0/8")', false],
  ['masked prefixes are equal', 'cidr("10.0.0.1/8").masked() == cidr("10.0.0.0/8")', true],
  ['no prefix without a slash', 'isCIDR("10.0.0.0")', false],
  ['no leading zero in a length', 'isCIDR("10.0.0.0/08")', false],
  ['no length past the family', 'isCIDR("10.0.0.0/33")', false],
  ['an IPv6 length up to 128', 'isCIDR("::/128")', true],
  ['no IPv4 address in an IPv6 prefix', 'cidr("::/0").containsIP("1.2.3.4")', false],
  ['a /0 contains every address of its family', 'cidr("0.0.0.0/0").containsIP("255.1.2.3")', true],
  ['an odd length masks within a byte', 'string(cidr("10.255.0.0/9").masked())', '10.128.0.0/9'],
  ['the private IPv4 ranges are global unicast', 'ip("10.0.0.1").isGlobalUnicast()', true],
  ['multicast is not global unicast', 'ip("239.1.1.1").isGlobalUnicast()', false],
  ['link-local multicast with flags', 'ip("ff12::1").isLinkLocalMulticast()', true],
];

describe.each([
  ['the ip library (TestIP)', TEST_IP],
  ['the cidr library (TestCIDR)', TEST_CIDR],
  ['IP and CIDR parsing as netip, with the API server refusals', PARSING],
])('%s', (_, cases) => {
  it.each(table(cases))('$name: $expr', ({ expr, expected }) => {
    expect(runExpression(expr)).toEqual(expected);
  });
});

describe('the library types as values (type(x) == net.IP)', () => {
  it.each([
    ['type(ip("10.0.0.1")) == net.CIDR', false],
    ['type(cidr("10.0.0.0/8").ip()) == net.IP', true],
    ['type(ip("10.0.0.1")) == map', false],
    ['type({}) == map', true],
    ['type(1) == int', true],
    ['net.IP == net.IP', true],
  ])('%s is %s', (expr, expected) => {
    expect(runExpression(expr)).toBe(expected);
  });

  it('are names only where the ip and cidr libraries are (1.30 on)', () => {
    expect(() => runExpression('type(1) == net.IP', null, undefined, '1.29')).toThrow(
      "undeclared reference to 'net'",
    );
  });
});

describe('the ip and cidr libraries by Kubernetes version', () => {
  it('are in the environment of 1.30', () => {
    expect(runExpression('isIP("::1")', null, undefined, '1.30')).toBe(true);
  });

  it('are not in the environment of 1.29, whose API server refuses them', () => {
    expect(() => runExpression('isIP("::1")', null, undefined, '1.29')).toThrow(
      "undeclared reference to 'isIP'",
    );
  });
});

describe("Gateway API's TLSRoute hostnames rule", () => {
  // The rule of the standard TLSRoute CRD (gateway.networking.k8s.io_tlsroutes.yaml), refused
  // before the ip library: `cel-invalid-rule: undeclared reference to 'isIP'`.
  const text = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: tlsroutes.gateway.networking.k8s.io
  annotations: { api-approved.kubernetes.io: https://github.com/kubernetes-sigs/gateway-api/pull/3328 }
spec:
  group: gateway.networking.k8s.io
  names: { kind: TLSRoute, plural: tlsroutes, singular: tlsroute, listKind: TLSRouteList }
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
                hostnames:
                  type: array
                  maxItems: 16
                  items: { type: string, maxLength: 253 }
                  x-kubernetes-validations:
                    - message: Hostnames cannot contain an IP
                      rule: self.all(h, !isIP(h))
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: { name: by-name, namespace: default }
spec: { hostnames: [example.com] }
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: { name: by-ip, namespace: default }
spec: { hostnames: [10.0.0.1] }
`;

  it('compiles, and finds the route whose hostname is an IP', () => {
    const { findings } = loadManifests([{ path: 'tlsroute.yaml', text }]);
    expect(findings.map((f) => [f.code, f.line, f.pointer])).toEqual([
      ['cel-violation', 37, '/spec/hostnames'],
    ]);
  });
});
