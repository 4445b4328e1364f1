import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  summarizeResources,
  type CheckCase,
  type CheckResult,
} from '../../../src/app/check/check-result.js';
import { ManifestTooLargeError } from '../../../src/loaders/manifest-size.js';
import { cannotRead } from '../../../src/loaders/unreadable-file.js';
import { renderCheckGithub } from '../../../src/cli/render/check/check-github.js';
import { renderCheckJunit } from '../../../src/cli/render/check/check-junit.js';
import { renderCheckTap } from '../../../src/cli/render/check/check-tap.js';
import {
  formatResourceSummary,
  groupDigits,
  renderCheckText,
} from '../../../src/cli/render/check/check-text.js';
import { createColors } from '../../../src/cli/render/report.js';

describe("check's manifests summary", () => {
  it('counts resources and files, with digit groups', () => {
    expect(
      formatResourceSummary({
        resources: 5000,
        files: 1,
        valid: 4998,
        invalid: 2,
        skipped: 0,
        failedFiles: 0,
      }),
    ).toBe('5,000 resources in 1 file: 4,998 valid, 2 invalid');
    expect(
      formatResourceSummary({
        resources: 1,
        files: 2,
        valid: 0,
        invalid: 0,
        skipped: 1,
        failedFiles: 0,
      }),
    ).toBe('1 resource in 2 files: 0 valid, 0 invalid, 1 skipped');
    // A file that failed whole has no resource to count as invalid: said on its own.
    expect(
      formatResourceSummary({
        resources: 2,
        files: 3,
        valid: 2,
        invalid: 0,
        skipped: 0,
        failedFiles: 1,
      }),
    ).toBe('2 resources in 3 files: 2 valid, 0 invalid, 1 file failed whole');
  });

  it('counts a manifest file that cannot be read as a file failed whole, not a missing path or an unreadable directory (review gate4 G2)', () => {
    const whole = (name: string, code: 'unreadable-file' | 'path-not-found'): CheckCase => ({
      check: 'manifests',
      name,
      findings: [
        {
          code,
          message: `${name}: no`,
          severity: 'error',
          file: name,
          line: 0,
          col: 0,
          pointer: '',
        },
      ],
    });
    const result: CheckResult = {
      cases: [
        {
          check: 'manifests',
          name: 'ok.yaml:1 ConfigMap ok',
          resource: {
            file: 'ok.yaml',
            line: 1,
            col: 1,
            kind: 'ConfigMap',
            name: 'ok',
            status: 'valid',
          },
          findings: [],
        },
        whole('d/locked.yaml', 'unreadable-file'),
        whole('d/dangling.yml', 'unreadable-file'),
        whole('d/lockdir', 'unreadable-file'),
        whole('missing.yaml', 'path-not-found'),
      ],
      strict: false,
    };
    expect(summarizeResources(result)).toMatchObject({ files: 3, valid: 1, failedFiles: 2 });
  });

  it('counts an input too large to read from the standard input, a pipe or a device as a file failed whole, as a file so large is (review gate5 2)', () => {
    const tooLarge = (name: string): CheckCase => ({
      check: 'manifests',
      name,
      findings: [cannotRead(name, new ManifestTooLargeError())],
    });
    const result: CheckResult = {
      cases: [
        tooLarge('<stdin>'),
        tooLarge('/dev/fd/63'),
        tooLarge('/dev/zero'),
        tooLarge('big.yaml'),
      ],
      strict: false,
    };
    expect(summarizeResources(result)).toMatchObject({ files: 4, failedFiles: 4 });
  });

  it('groups digits as en-US does', () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
  });
});

/** A check of `valid` + `invalid` resources in one file, and `controllers` passing controllers. */
function bigCheck(valid: number, invalid: number, controllers: number): CheckResult {
  const resource = (i: number, state: 'valid' | 'invalid'): CheckCase => ({
    check: 'manifests',
    name: `r${i}`,
    resource: {
      file: 'all.yaml',
      line: i * 3 + 1,
      col: 1,
      kind: 'VM',
      name: `r${i}`,
      status: state,
    },
    findings:
      state === 'valid'
        ? []
        : [
            {
              code: 'schema-violation',
              message: 'bad',
              severity: 'error',
              file: 'all.yaml',
              line: i * 3 + 2,
              col: 1,
              pointer: '/spec',
            },
          ],
  });
  return {
    cases: [
      ...Array.from({ length: valid }, (_, i) => resource(i, 'valid')),
      ...Array.from({ length: invalid }, (_, i) => resource(valid + i, 'invalid')),
      ...Array.from({ length: controllers }, (_, i): CheckCase => ({
        check: 'controllers',
        name: `c${i}`,
        findings: [],
      })),
    ],
    strict: false,
  };
}

describe("check's summary lines", () => {
  it('group the digits of every count, the last line too', () => {
    const text = renderCheckText(bigCheck(4998, 2, 1200), createColors(false));
    const summary = text.trimEnd().split('\n').slice(-3);
    expect(summary).toEqual([
      'manifests: 5,000 resources in 1 file: 4,998 valid, 2 invalid',
      'controllers: 1,200 passed, 0 failed',
      '6,198 passed, 2 failed',
    ]);
  });

  it('count no file for a path that is not there', () => {
    const result = bigCheck(2, 0, 0);
    const missing: CheckCase = {
      check: 'manifests',
      name: 'gone.yaml',
      findings: [
        {
          code: 'path-not-found',
          message: 'gone.yaml does not exist',
          severity: 'error',
          file: 'gone.yaml',
          line: 0,
          col: 0,
          pointer: '',
        },
      ],
    };
    const text = renderCheckText(
      { ...result, cases: [...result.cases, missing] },
      createColors(false),
    );
    expect(text).toContain('manifests: 2 resources in 1 file: 2 valid, 0 invalid');
  });

  it('are left out with -q: the findings alone, nothing when there is none', () => {
    const quiet = renderCheckText(bigCheck(3, 2, 1), createColors(false), { quiet: true });
    expect(quiet.trimEnd().split('\n')).toEqual([
      'all.yaml:11:1: error[schema-violation]: bad (at /spec)',
      'all.yaml:14:1: error[schema-violation]: bad (at /spec)',
    ]);
    expect(renderCheckText(bigCheck(3, 0, 1), createColors(false), { quiet: true })).toBe('');
  });

  it('list the first 1,000 findings of a run and count the rest; the verdicts are the whole run', () => {
    const text = renderCheckText(bigCheck(10, 1200, 0), createColors(false))
      .trimEnd()
      .split('\n');
    expect(text.filter((l) => l.includes('error[schema-violation]'))).toHaveLength(1000);
    expect(text).toContain('and 200 more findings (200 of them errors), not listed');
    expect(text.slice(-2)).toEqual([
      'manifests: 1,210 resources in 1 file: 10 valid, 1,200 invalid',
      '10 passed, 1,200 failed',
    ]);
    const github = renderCheckGithub(bigCheck(10, 1200, 0), { cwd: '/w', anchor: 'k8s' });
    expect(github.split('\n').filter((l) => l.startsWith('::error '))).toHaveLength(1000);
    expect(github).toContain(
      '::warning file=k8s,line=1,title=check%3A too-many-findings::and 200 more findings',
    );
  });

  it('fail an invalid document whose findings the load left out (past its cap), in every format', () => {
    const result = bigCheck(2, 2, 0);
    const [a, b, c, d] = result.cases;
    // The last invalid document's findings are past the load's cap: only its status says so.
    const capped: CheckResult = { ...result, cases: [a!, b!, c!, { ...d!, findings: [] }] };
    expect(renderCheckText(capped, createColors(false))).toContain('2 passed, 2 failed');
    expect(renderCheckTap(capped)).toContain('not ok 4 - manifests: r3');
    expect(renderCheckJunit(capped)).toMatch(
      /<testcase classname="manifests" name="r3">\n\s+<failure type="invalid"/,
    );
  });

  it('JUnit: one <failure> in a case of several findings, holding each of them (review gate4 G4)', () => {
    const finding = (code: 'duplicate-resource' | 'schema-violation', line: number) => ({
      code,
      message: `${code} here`,
      severity: 'error' as const,
      file: 'y.yaml',
      line,
      col: 9,
      pointer: '/spec/replicas',
    });
    const junit = renderCheckJunit({
      cases: [
        {
          check: 'manifests',
          name: 'y.yaml:1 Deployment bad',
          resource: {
            file: 'y.yaml',
            line: 1,
            col: 1,
            kind: 'Deployment',
            name: 'bad',
            status: 'invalid',
          },
          findings: [finding('duplicate-resource', 4), finding('schema-violation', 6)],
        },
      ],
      strict: false,
    });
    expect(junit.match(/<failure /g)).toHaveLength(1);
    expect(junit).toContain(
      '<failure type="duplicate-resource" message="duplicate-resource here (and 1 more finding)">',
    );
    expect(junit).toContain(
      'y.yaml:4:9: duplicate-resource: duplicate-resource here\nat /spec/replicas',
    );
    expect(junit).toContain(
      'y.yaml:6:9: schema-violation: schema-violation here\nat /spec/replicas',
    );
  });

  it('group the digits of the github summary line', () => {
    const github = renderCheckGithub(bigCheck(4998, 2, 0), { cwd: '/w' });
    expect(github.trimEnd().split('\n').at(-1)).toBe('4,998 passed, 2 failed');
  });
});
