import { formatLocation } from '../../../loaders/finding.js';
import {
  caseFailed,
  checkTotals,
  isFailure,
  isSkippedCase,
  SET_ASIDE_CHECK,
  summarize,
  type CheckCase,
  type CheckResult,
} from '../../../app/check/check-result.js';
import { FINDINGS_NOT_LISTED } from './shown-findings.js';

/**
 * A suite of the report: a check class's cases, or (`cosi test`) a scenario file's, as vitest's
 * and jest's reporters make a suite of each test file.
 */
interface Suite {
  readonly name: string;
  readonly file?: string;
  readonly cases: readonly CheckCase[];
}

/** A check class's cases, split by the file they are in when they name one (scenario files). */
function suitesOf(check: string, cases: readonly CheckCase[]): Suite[] {
  if (!cases.some((c) => c.file !== undefined)) return [{ name: check, cases }];
  const byFile = new Map<string, CheckCase[]>();
  for (const c of cases) {
    const key = c.file ?? '';
    const group = byFile.get(key) ?? [];
    group.push(c);
    byFile.set(key, group);
  }
  return [...byFile].map(([file, group]) =>
    file === '' ? { name: check, cases: group } : { name: file, file, cases: group },
  );
}

/** A `time` attribute: seconds, as JUnit holds them. */
const time = (ms: number): string => ` time="${(ms / 1000).toFixed(3)}"`;

/** The wall time of cases: each one's, and the start of a scenario before its first. */
const timeOfCases = (cases: readonly CheckCase[]): number =>
  cases.reduce((sum, c) => sum + (c.durationMs ?? 0) + (c.setupMs ?? 0), 0);

/**
 * JUnit XML: a test suite per check class (per scenario file for `cosi test`), a test case per
 * case, one failure in a failing case holding each of its findings. Cases that were timed (a
 * scenario's steps) have a `time`, as their suite and the root do, in seconds, as CI systems
 * (GitLab, Jenkins, GitHub's JUnit actions) read it; a case in a file names it (`file`).
 */
export function renderCheckJunit(result: CheckResult, title = 'cosi check'): string {
  const summary = summarize(result);
  const { passed, failed: failures, skipped } = checkTotals(result);
  const unrendered = result.unrendered ?? [];
  const total = passed + failures + skipped;
  const timed = result.cases.some((c) => c.durationMs !== undefined);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(title)}" tests="${total}" failures="${failures}" skipped="${skipped}"${timed ? time(timeOfCases(result.cases)) : ''}>`,
  ];
  for (const s of summary) {
    for (const suite of suitesOf(
      s.check,
      result.cases.filter((x) => x.check === s.check),
    )) {
      out.push(...renderSuite(suite, result, timed));
    }
  }
  // What was set aside as not manifests (charts, kustomizations): skipped cases.
  if (unrendered.length > 0) {
    const n = unrendered.length;
    out.push(`  <testsuite name="${SET_ASIDE_CHECK}" tests="${n}" failures="0" skipped="${n}">`);
    for (const u of unrendered) {
      out.push(
        `    <testcase classname="${SET_ASIDE_CHECK}" name="${xml(u.path)}"><skipped message="${xml(u.message)}"/></testcase>`,
      );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** A suite's lines; `timed`: its cases and itself have a `time`. */
function renderSuite(suite: Suite, result: CheckResult, timed: boolean): string[] {
  const failed = suite.cases.filter((c) => caseFailed(c, result)).length;
  const skipped = suite.cases.filter((c) => isSkippedCase(c) && !caseFailed(c, result)).length;
  const out = [
    `  <testsuite name="${xml(suite.name)}" tests="${suite.cases.length}" failures="${failed}" skipped="${skipped}"${timed ? time(timeOfCases(suite.cases)) : ''}>`,
  ];
  // In a file's suite, the class is the file (as vitest's reporter has it) and the name the rest.
  const classname = suite.file ?? suite.name;
  const prefix = suite.file === undefined ? undefined : `${suite.file} › `;
  for (const c of suite.cases) {
    const name =
      prefix !== undefined && c.name.startsWith(prefix) ? c.name.slice(prefix.length) : c.name;
    const attributes = `classname="${xml(classname)}" name="${xml(name)}"${
      c.file === undefined ? '' : ` file="${xml(c.file)}"`
    }${timed ? time(c.durationMs ?? 0) : ''}`;
    const failing = c.findings.filter((f) => isFailure(f, result));
    if (!caseFailed(c, result)) {
      const skip =
        c.skipped === undefined ? '<skipped/>' : `<skipped message="${xml(c.skipped)}"/>`;
      out.push(
        isSkippedCase(c)
          ? `    <testcase ${attributes}>${skip}</testcase>`
          : `    <testcase ${attributes}/>`,
      );
      continue;
    }
    out.push(`    <testcase ${attributes}>`);
    if (failing.length === 0) {
      out.push(`      <failure type="invalid" message="${xml(FINDINGS_NOT_LISTED)}"/>`);
    }
    // One <failure> a case, as JUnit's schema has it (Jenkins keeps the first of several): the
    // first finding's, with every finding in its text.
    const [first] = failing;
    if (first !== undefined) {
      const more = failing.length - 1;
      const message =
        more === 0
          ? first.message
          : `${first.message} (and ${more} more ${more === 1 ? 'finding' : 'findings'})`;
      const body = failing
        .map((f) =>
          [
            more === 0 ? formatLocation(f) : `${formatLocation(f)}: ${f.code}: ${f.message}`,
            f.pointer ? `at ${f.pointer}` : '',
            f.diff ?? '',
          ]
            .filter(Boolean)
            .join('\n'),
        )
        .join('\n\n');
      out.push(
        `      <failure type="${xml(first.code)}" message="${xml(message)}">${xml(body)}</failure>`,
      );
    }
    out.push('    </testcase>');
  }
  out.push('  </testsuite>');
  return out;
}

function xml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // XML 1.0 cannot carry most control characters at all, nor U+FFFE, U+FFFF or half a
      // surrogate pair.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
  );
}
