import { describe, expect, it } from 'vitest';
import { celEnvironmentFor } from '../../../src/loaders/cel/cel-environment.js';
import { parseExpression } from '../../../src/loaders/cel/cel-expression.js';
import type { CelType } from '../../../src/loaders/cel/cel-types.js';
import { estimateCost } from '../../../src/loaders/cel/cost-estimate.js';
import { compileRules } from '../../../src/loaders/cel/rule-compiler.js';
import { checkTypes } from '../../../src/loaders/cel/type-check.js';

/**
 * The static cost of the Kubernetes CEL libraries' functions, ported from k8s.io/apiserver
 * `pkg/cel/library/cost_test.go` (Copyright 2022 The Kubernetes Authors; the mirror's HEAD of
 * July 2026, Kubernetes 1.36 development): each expression's estimated `Max`. The Go test sizes
 * every string and bytes value it cannot see as at most 12 (its `testCostEstimator`); so does
 * {@link estimate}.
 */

/** The Go test's size estimator: a string or bytes of unknown size has at most 12 elements. */
const testSize = (type: CelType): number | undefined =>
  type.kind === 'string' || type.kind === 'bytes' ? 12 : undefined;

function estimate(source: string): number {
  const parsed = parseExpression(source, celEnvironmentFor());
  const expr = parsed.expr as unknown as Parameters<typeof checkTypes>[0];
  const checked = checkTypes(expr, new Map());
  expect(checked.errors).toEqual([]);
  return estimateCost(expr, checked.types, undefined, { unknownSize: testSize });
}

const INT_LIST = '[1, 2, 3, 4, 5]';
const UINT_LIST = '[uint(1), uint(2), uint(3), uint(4), uint(5)]';
const DOUBLE_LIST = '[1.0, 2.0, 3.0, 4.0, 5.0]';
const BOOL_LIST = '[false, true, false, true, false]';
const STRING_LIST =
  "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const BYTES_LIST =
  "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]";
const DURATION_LIST =
  "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const TIMESTAMP_LIST =
  "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), " +
  "timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), " +
  "timestamp('2011-01-05T00:00:00.000+01:00')]";
const STRING = "'01234567890123456789012345678901234567890123456789'";

describe('TestListsCost', () => {
  it.each([
    [INT_LIST, 15],
    [UINT_LIST, 20],
    [DOUBLE_LIST, 15],
    [DURATION_LIST, 20],
  ])('%s.sum() costs %i', (list, max) => {
    expect(estimate(`${list}.sum()`)).toBe(max);
  });

  for (const op of ['.isSorted()', '.max()', '.min()']) {
    it.each([
      [INT_LIST, 15],
      [UINT_LIST, 20],
      [DOUBLE_LIST, 15],
      [BOOL_LIST, 15],
      [STRING_LIST, 25],
      [BYTES_LIST, 35],
      [DURATION_LIST, 20],
      [TIMESTAMP_LIST, 20],
    ])(`%s${op} costs %i`, (list, max) => {
      expect(estimate(`${list}${op}`)).toBe(max);
    });
  }
});

describe('TestIndexOfCost', () => {
  for (const op of ['indexOf', 'lastIndexOf']) {
    it.each([
      [INT_LIST, '3', 15],
      [UINT_LIST, 'uint(3)', 21],
      [DOUBLE_LIST, '3.0', 15],
      [BOOL_LIST, 'true', 15],
      [STRING_LIST, "'x'", 25],
      [BYTES_LIST, "bytes('x')", 36],
      [DURATION_LIST, "duration('3s')", 21],
      [TIMESTAMP_LIST, "timestamp('2011-01-03T00:00:00.000+01:00')", 21],
      [STRING, "'123'", 5],
    ])(`%s.${op}(%s) costs %i`, (list, param, max) => {
      expect(estimate(`${list}.${op}(${param})`)).toBe(max);
    });
  }
});

describe('TestURLsCost', () => {
  const url = "url('https:://kubernetes.io/')";
  it.each<readonly [string, number]>([
    ...['.getScheme()', '.getHostname()', '.getHost()', '.getPort()', '.getEscapedPath()'].map(
      (op) => [op, 4] as const,
    ),
    ['.getQuery()', 4],
    [" == url('https:://kubernetes.io/')", 9],
    [" == url('http://x.b')", 5],
  ])(`${url}%s costs %i`, (op, max) => {
    expect(estimate(`${url}${op}`)).toBe(max);
  });
});

describe('TestIPCost', () => {
  for (const [ip, base] of [
    ["ip('192.168.0.1')", 2],
    ["ip('2001:db8:3333:4444:5555:6666:7777:8888')", 4],
  ] as const) {
    it.each<readonly [string, number]>([
      ['', base],
      ...[
        '.family()',
        '.isUnspecified()',
        '.isLoopback()',
        '.isLinkLocalMulticast()',
        '.isLinkLocalUnicast()',
        '.isGlobalUnicast()',
      ].map((op) => [op, base + 1] as const),
      [" == ip('192.168.0.1')", base + 2 + 1],
    ])(`${ip}%s costs %i`, (op, max) => {
      expect(estimate(`${ip}${op}`)).toBe(max);
    });
  }
});

describe('TestIPIsCanonicalCost', () => {
  it.each([
    ["ip.isCanonical('192.168.0.1')", 3],
    ["ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')", 8],
    ["ip.isCanonical('2001:db8::abcd')", 3],
  ])('%s costs %i', (source, max) => {
    expect(estimate(source)).toBe(max);
  });
});

describe('TestCIDRCost', () => {
  const common = (base: number) => [
    ['', base] as const,
    ...['.ip()', '.prefixLength()', '.masked()'].map((op) => [op, base + 1] as const),
    [" == cidr('2001:db8::/32')", base + 2 + 1] as const,
  ];
  const ipv4 = "cidr('192.168.0.0/16')";
  it.each<readonly [string, number]>([
    ...common(2),
    [".containsCIDR(cidr('192.0.0.0/30'))", 2 + 9],
    [".containsCIDR(cidr('192.168.0.0/16'))", 2 + 9],
    [".containsCIDR('192.0.0.0/30')", 2 + 9],
    [".containsCIDR('192.168.0.0/16')", 2 + 9],
    [".containsIP(ip('192.0.0.1'))", 2 + 5],
    [".containsIP(ip('192.169.0.1'))", 2 + 6],
    [".containsIP(ip('192.169.169.250'))", 2 + 6],
    [".containsIP('192.0.0.1')", 2 + 5],
    [".containsIP('192.169.0.1')", 2 + 6],
  ])(`${ipv4}%s costs %i`, (op, max) => {
    expect(estimate(`${ipv4}${op}`)).toBe(max);
  });
  const ipv6 = "cidr('2001:db8::/32')";
  it.each<readonly [string, number]>([
    ...common(2),
    [".containsCIDR(cidr('2001:db8::/126'))", 2 + 9],
    [".containsCIDR(cidr('2001:db8::/32'))", 2 + 9],
    [".containsCIDR('2001:db8::/126')", 2 + 9],
    [".containsCIDR('2001:db8::/32')", 2 + 9],
    [".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))", 2 + 8],
    [".containsIP(ip('2001:db8::1'))", 2 + 6],
    [".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')", 2 + 8],
    [".containsIP('2001:db8::1')", 2 + 6],
  ])(`${ipv6}%s costs %i`, (op, max) => {
    expect(estimate(`${ipv6}${op}`)).toBe(max);
  });
});

describe('TestStringLibrary', () => {
  it.each([
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3],
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 9],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii()", 3],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", 9],
    ["strings.quote('ABCDEFGHIJ abcdefghij')", 3],
    ["strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')", 11],
    ["'abc 123 def 123'.replace('123', '456')", 3],
    ["'abc 123 def 123'.replace('', 'x')", 3],
    ["'abc 123 def 123'.replace('123', '')", 3],
    ["'abc 123 def 123'.replace('123', '456', 1)", 3],
    ["'abc 123 def 123'.split(' ')", 3],
    ["'abc 123 def 123'.split(' ', 1)", 3],
    ["'abc 123 def 123'.substring(5)", 2],
    ["'abc 123 def 123'.substring(5, 8)", 2],
    ["'  abc 123 def 123  '.trim()", 2],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", 23],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", 22],
    ["'abc 123 def 123'.find('123')", 2],
    ["'abc 123 def 123'.findAll('123')", 2],
    ["'abc 123 def 123'.findAll('123', 1)", 2],
    ["jsonpatch.escapeKey('abc/def~ abc/def~')", 2],
  ])('%s costs %i', (source, max) => {
    expect(estimate(source)).toBe(max);
  });
});

describe('TestQuantityCost', () => {
  it.each([
    ['quantity("12Mi")', 1],
    ['isQuantity("20")', 1],
    ['isQuantity("20M")', 1],
    ['quantity("200M") == quantity("200M")', 3],
    ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', 6],
    [
      'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
      9,
    ],
    ['quantity("50M").isLessThan(quantity("50Mi"))', 3],
    ['quantity("50Mi").isGreaterThan(quantity("50M"))', 3],
    ['quantity("200M").compareTo(quantity("0.2G")) > 0', 4],
    ['quantity("50k").add(quantity("20")) == quantity("50.02k")', 5],
    ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', 5],
    ['quantity("50k").sub(20) == quantity("49980")', 4],
    ['quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0', 6],
    ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0', 7],
    ['quantity("50k").asInteger() > 0', 3],
    ['quantity("50").isInteger()', 2],
    ['quantity("50.703k").asApproximateFloat() > 0.0', 3],
  ])('%s costs %i', (source, max) => {
    expect(estimate(source)).toBe(max);
  });
});

describe('TestNameFormatCost', () => {
  it.each([
    ['format.named("dns1123subdomain")', 1],
    ['format.named("dns1123Subdomain").value().validate("my-name")', 34],
    ['format.named("dns1123Label").value().validate("my-name")', 34],
    ['format.named("dns1123Label").value() == format.named("dns1123Label").value()', 11],
  ])('%s costs %i', (source, max) => {
    expect(estimate(source)).toBe(max);
  });
});

describe('TestSemverCost', () => {
  it.each([
    ['semver("1.0.0")', 1],
    ['semver("1234.56789012345.67890123456789")', 4],
    ['isSemver("1.0.0")', 1],
    ['isSemver("1234.56789012345.67890123456789")', 4],
    ['semver("1.2.3").major()', 2],
    ['semver("1.2.3").minor()', 2],
    ['semver("1.2.3").patch()', 2],
    ['semver("1.0.0").isLessThan(semver("1.1.0"))', 3],
    ['semver("1.1.0").isGreaterThan(semver("1.0.0"))', 3],
    ['semver("1.0.0").compareTo(semver("1.2.3"))', 3],
  ])('%s costs %i', (source, max) => {
    expect(estimate(source)).toBe(max);
  });
});

describe('library costs in a CRD', () => {
  it('refuse a rule whose library calls over a long unbounded list exceed the budget', () => {
    // 2,000 items of up to 25,000 characters (100,000 bytes, as the API server sizes a string):
    // isSorted() reads every one, 2,000 x (1 + 10,000) = 20,002,000, twice the 10,000,000 the
    // API server allows one rule.
    const schema = {
      type: 'object',
      properties: {
        names: {
          type: 'array',
          maxItems: 2000,
          items: { type: 'string', maxLength: 25_000 },
        },
      },
      'x-kubernetes-validations': [{ rule: 'self.names.isSorted()' }],
    };
    expect(compileRules(schema).problems.map((p) => [p.rule, p.message])).toEqual([
      [
        'rule-cost',
        expect.stringContaining('estimated rule cost exceeds budget by factor of 2.0x') as unknown,
      ],
    ]);
    const bounded = {
      ...schema,
      properties: {
        names: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 63 } },
      },
    };
    expect(compileRules(bounded).problems).toEqual([]);
  });
});
