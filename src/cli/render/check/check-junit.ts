import { formatLocation } from '../../../loaders/finding.js';
import {
  caseFailed,
  isFailure,
  isSkippedCase,
  summarize,
  totals,
  type CheckResult,
} from '../../../app/check/check-result.js';
import { FINDINGS_NOT_LISTED } from './shown-findings.js';

/**
 * JUnit XML: a test suite per check class, a test case per case, one failure in a failing case
 * holding each of its findings.
 */
export function renderCheckJunit(result: CheckResult, title = 'cosi check'): string {
  const summary = summarize(result);
  const { passed, failed: failures, skipped } = totals(summary);
  const unrendered = result.unrendered ?? [];
  const total = passed + failures + skipped + unrendered.length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(title)}" tests="${total}" failures="${failures}" skipped="${skipped + unrendered.length}">`,
  ];
  for (const s of summary) {
    out.push(
      `  <testsuite name="${xml(s.check)}" tests="${s.passed + s.failed + s.skipped}" failures="${s.failed}" skipped="${s.skipped}">`,
    );
    for (const c of result.cases.filter((x) => x.check === s.check)) {
      const failing = c.findings.filter((f) => isFailure(f, result));
      if (!caseFailed(c, result)) {
        const skip =
          c.skipped === undefined ? '<skipped/>' : `<skipped message="${xml(c.skipped)}"/>`;
        out.push(
          isSkippedCase(c)
            ? `    <testcase classname="${xml(c.check)}" name="${xml(c.name)}">${skip}</testcase>`
            : `    <testcase classname="${xml(c.check)}" name="${xml(c.name)}"/>`,
        );
        continue;
      }
      out.push(`    <testcase classname="${xml(c.check)}" name="${xml(c.name)}">`);
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
  }
  // What was set aside as not manifests (charts, kustomizations): skipped cases.
  if (unrendered.length > 0) {
    const n = unrendered.length;
    out.push(`  <testsuite name="set aside" tests="${n}" failures="0" skipped="${n}">`);
    for (const u of unrendered) {
      out.push(
        `    <testcase classname="set aside" name="${xml(u.path)}"><skipped message="${xml(u.message)}"/></testcase>`,
      );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
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
