import {
  caseFailed,
  formatPlace,
  isFailure,
  summarize,
  type CheckResult,
} from '../../check/check-result.js';

/** JSON: the summary per class, every case with its findings, and the totals. */
export function renderCheckJson(result: CheckResult): string {
  const summary = summarize(result);
  const failed = summary.reduce((n, s) => n + s.failed, 0);
  const passed = summary.reduce((n, s) => n + s.passed, 0);
  return `${JSON.stringify(
    {
      passed,
      failed,
      strict: result.strict,
      checks: summary,
      cases: result.cases.map((c) => ({ ...c, failed: caseFailed(c, result.strict) })),
    },
    null,
    2,
  )}\n`;
}

/** JUnit XML: a test suite per check class, a test case per case, a failure per failing finding. */
export function renderCheckJunit(result: CheckResult): string {
  const summary = summarize(result);
  const total = summary.reduce((n, s) => n + s.passed + s.failed, 0);
  const failures = summary.reduce((n, s) => n + s.failed, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cosi check" tests="${total}" failures="${failures}">`,
  ];
  for (const s of summary) {
    out.push(
      `  <testsuite name="${xml(s.check)}" tests="${s.passed + s.failed}" failures="${s.failed}">`,
    );
    for (const c of result.cases.filter((x) => x.check === s.check)) {
      const failing = c.findings.filter((f) => isFailure(f, result.strict));
      if (failing.length === 0) {
        out.push(`    <testcase classname="${xml(c.check)}" name="${xml(c.name)}"/>`);
        continue;
      }
      out.push(`    <testcase classname="${xml(c.check)}" name="${xml(c.name)}">`);
      for (const f of failing) {
        const body = [formatPlace(f), f.pointer ? `at ${f.pointer}` : '', f.diff ?? '']
          .filter(Boolean)
          .join('\n');
        out.push(
          `      <failure type="${xml(f.code)}" message="${xml(f.message)}">${xml(body)}</failure>`,
        );
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** TAP version 13: one test point per case, findings as a YAML diagnostic block. */
export function renderCheckTap(result: CheckResult): string {
  const out = ['TAP version 13', `1..${result.cases.length}`];
  result.cases.forEach((c, i) => {
    const failed = caseFailed(c, result.strict);
    out.push(`${failed ? 'not ok' : 'ok'} ${i + 1} - ${c.check}: ${c.name}`);
    const shown = c.findings.filter((f) => isFailure(f, result.strict) || failed);
    if (failed || shown.length > 0) {
      out.push('  ---');
      out.push('  findings:');
      for (const f of c.findings) {
        out.push(`    - code: ${JSON.stringify(f.code)}`);
        out.push(`      severity: ${f.severity}`);
        out.push(`      message: ${JSON.stringify(f.message)}`);
        if (formatPlace(f)) out.push(`      at: ${JSON.stringify(formatPlace(f))}`);
        if (f.pointer) out.push(`      pointer: ${JSON.stringify(f.pointer)}`);
      }
      out.push('  ...');
    }
  });
  return `${out.join('\n')}\n`;
}

/** GitHub Actions workflow commands: an annotation per finding, then the summary line. */
export function renderCheckGithub(result: CheckResult): string {
  const out: string[] = [];
  for (const c of result.cases) {
    for (const f of c.findings) {
      const level = isFailure(f, result.strict) ? 'error' : 'warning';
      const props = [`title=${property(`${c.check}: ${f.code}`)}`];
      if (f.file)
        props.unshift(
          `file=${property(f.file)}`,
          ...(f.line > 0 ? [`line=${f.line}`, `col=${f.col}`] : []),
        );
      const message = [f.message, f.pointer ? `(at ${f.pointer})` : '', f.diff ? `\n${f.diff}` : '']
        .filter(Boolean)
        .join(' ');
      out.push(`::${level} ${props.join(',')}::${data(message)}`);
    }
  }
  const summary = summarize(result);
  const passed = summary.reduce((n, s) => n + s.passed, 0);
  const failed = summary.reduce((n, s) => n + s.failed, 0);
  out.push(`${passed} passed, ${failed} failed`);
  return `${out.join('\n')}\n`;
}

function xml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // XML 1.0 cannot carry most control characters at all.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

/** Escaping of a workflow command's message. */
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping of a workflow command's property value. */
function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
