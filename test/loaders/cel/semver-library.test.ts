import { describe, expect, it } from 'vitest';
import { Semver } from '../../../src/loaders/cel/kubernetes-library/semver.js';
import { runExpression } from './run-expression.js';

/** `[name, expression, expected]`: a value, `{ semver: canonical }`, or `{ error: pattern }`. */
type Case = [string, string, unknown];

function run(expr: string): unknown {
  const result = runExpression(expr);
  return result instanceof Semver ? { semver: result.get('kubernetes.Semver') } : result;
}

// Ported from k8s.io/apiserver pkg/cel/library/semver_test.go, TestSemver (header: Copyright
// 2023 The Kubernetes Authors), with the library's version 1 as Kubernetes 1.33 enables it.
// Left out: `isSemver([1, 2, 3])`, a compile error there (a run-time one here).
const TEST_SEMVER: Case[] = [
  ['parse', 'semver("1.2.3")', { semver: '1.2.3' }],
  ['parseInvalidVersion', 'semver("v1.0")', { error: 'No Major.Minor.Patch elements found' }],
  ['isSemver', 'isSemver("1.2.3-beta.1+build.1")', true],
  ['isSemver_empty_false', 'isSemver("")', false],
  ['isSemver_v_prefix_false', 'isSemver("v1.0.0")', false],
  ['isSemver_v_leading_whitespace_false', 'isSemver(" 1.0.0")', false],
  ['isSemver_v_contains_whitespace_false', 'isSemver("1. 0.0")', false],
  ['isSemver_v_trailing_whitespace_false', 'isSemver("1.0.0 ")', false],
  ['isSemver_leading_zeros_false', 'isSemver("01.01.01")', false],
  ['isSemver_major_only_false', 'isSemver("1")', false],
  ['isSemver_major_minor_only_false', 'isSemver("1.1")', false],
  ['isSemver_empty_normalize_false', 'isSemver("", true)', false],
  ['isSemver_v_leading_whitespace_normalize_false', 'isSemver(" 1.0.0", true)', false],
  ['isSemver_v_contains_whitespace_normalize_false', 'isSemver("1. 0.0", true)', false],
  ['isSemver_v_trailing_whitespace_normalize_false', 'isSemver("1.0.0 ", true)', false],
  ['isSemver_v_prefix_normalize_true', 'isSemver("v1.0.0", true)', true],
  ['isSemver_leading_zeros_normalize_true', 'isSemver("01.01.01", true)', true],
  ['isSemver_major_only_normalize_true', 'isSemver("1", true)', true],
  ['isSemver_major_minor_only_normalize_true', 'isSemver("1.1", true)', true],
  ['equality_normalize', 'semver("v01.01", true) == semver("1.1.0")', true],
  ['equality_reflexivity', 'semver("1.2.3") == semver("1.2.3")', true],
  ['inequality', 'semver("1.2.3") == semver("1.0.0")', false],
  ['semver_less', 'semver("1.0.0").isLessThan(semver("1.2.3"))', true],
  ['semver_less_false', 'semver("1.0.0").isLessThan(semver("1.0.0"))', false],
  ['semver_greater', 'semver("1.2.3").isGreaterThan(semver("1.0.0"))', true],
  ['semver_greater_false', 'semver("1.0.0").isGreaterThan(semver("1.0.0"))', false],
  ['compare_equal', 'semver("1.2.3").compareTo(semver("1.2.3"))', 0n],
  ['compare_less', 'semver("1.0.0").compareTo(semver("1.2.3"))', -1n],
  ['compare_greater', 'semver("1.2.3").compareTo(semver("1.0.0"))', 1n],
  ['major', 'semver("1.2.3").major()', 1n],
  ['minor', 'semver("1.2.3").minor()', 2n],
  ['patch', 'semver("1.2.3").patch()', 3n],
];

// cosi's own: semver precedence (semver.org 11), as blang/semver orders versions.
const PRECEDENCE: Case[] = [
  ['a prerelease is below its release', 'semver("1.0.0-rc.1").isLessThan(semver("1.0.0"))', true],
  [
    'numeric identifiers compare as numbers',
    'semver("1.0.0-2").isLessThan(semver("1.0.0-10"))',
    true,
  ],
  ['numbers are below strings', 'semver("1.0.0-1").isLessThan(semver("1.0.0-alpha"))', true],
  ['strings compare by characters', 'semver("1.0.0-alpha").isLessThan(semver("1.0.0-beta"))', true],
  [
    'a longer prerelease is above',
    'semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1"))',
    true,
  ],
  ['build metadata is ignored', 'semver("1.0.0+a") == semver("1.0.0+b")', true],
  ['no leading zero in a numeric prerelease', 'isSemver("1.0.0-01")', false],
  ['no empty build part', 'isSemver("1.0.0+a..b")', false],
  ['no prerelease on a short version', 'isSemver("1.1-rc", true)', false],
  [
    'a semver is not a quantity',
    "semver('1.0.0').isLessThan(quantity('1'))",
    { error: 'overload' },
  ],
  ['quantities still compare', "quantity('1').isLessThan(quantity('2'))", true],
];

describe.each([
  ['the semver library (TestSemver)', TEST_SEMVER],
  ['semver precedence', PRECEDENCE],
])('%s', (_, cases) => {
  it.each(cases.map(([name, expr, expected]) => ({ name, expr, expected })))(
    '$name: $expr',
    ({ expr, expected }) => {
      const result = run(expr);
      if (typeof expected === 'object' && expected !== null && 'error' in expected) {
        const message = String(expected.error);
        expect(result).toEqual({ error: expect.stringContaining(message) as unknown });
      } else {
        expect(result).toEqual(expected);
      }
    },
  );
});

describe('the semver library by Kubernetes version', () => {
  it('is in 1.33 and not in 1.32', () => {
    expect(runExpression('isSemver("1.0.0")', null, undefined, '1.33')).toBe(true);
    expect(() => runExpression('isSemver("1.0.0")', null, undefined, '1.32')).toThrow(
      "undeclared reference to 'isSemver'",
    );
  });
});
