import { formatLocation } from '../../../loaders/finding.js';
import {
  caseFailed,
  isFailure,
  isSkippedCase,
  SET_ASIDE_CHECK,
  type CheckResult,
} from '../../../app/check/check-result.js';
import { FINDINGS_NOT_LISTED } from './shown-findings.js';
import { escapeControl } from '../escape-control.js';

/** TAP version 13: one test point per case, findings as a YAML diagnostic block. */
export function renderCheckTap(result: CheckResult): string {
  const unrendered = result.unrendered ?? [];
  const out = ['TAP version 13', `1..${result.cases.length + unrendered.length}`];
  result.cases.forEach((c, i) => {
    const failed = caseFailed(c, result);
    const skip = isSkippedCase(c)
      ? ` # SKIP${c.skipped === undefined ? '' : ` ${tapDescription(c.skipped)}`}`
      : '';
    const description = tapDescription(`${c.check}: ${c.name}`);
    out.push(`${failed ? 'not ok' : 'ok'} ${i + 1} - ${description}${skip}`);
    const shown = c.findings.filter((f) => isFailure(f, result) || failed);
    if (failed || shown.length > 0) {
      out.push('  ---');
      if (c.findings.length === 0) out.push(`  message: ${JSON.stringify(FINDINGS_NOT_LISTED)}`);
      else out.push('  findings:');
      for (const f of c.findings) {
        out.push(`    - code: ${JSON.stringify(f.code)}`);
        out.push(`      severity: ${f.severity}`);
        out.push(`      message: ${JSON.stringify(f.message)}`);
        if (formatLocation(f)) out.push(`      at: ${JSON.stringify(formatLocation(f))}`);
        if (f.pointer) out.push(`      pointer: ${JSON.stringify(f.pointer)}`);
        // As JUnit's failure body and the text report have it: a quoted scalar, any line safe.
        if (f.diff) out.push(`      diff: ${JSON.stringify(f.diff)}`);
      }
      out.push('  ...');
    }
  });
  // What was set aside as not manifests (charts, kustomizations): skipped points.
  unrendered.forEach((u, i) => {
    const point = `ok ${result.cases.length + i + 1} - ${tapDescription(`${SET_ASIDE_CHECK}: ${u.path}`)}`;
    out.push(`${point} # SKIP ${tapDescription(u.message)}`);
  });
  return `${out.join('\n')}\n`;
}

/**
 * Text for a test point's line, where a `#` starts a directive (a file named `cm # TODO.yaml`
 * must not turn a failure into a TODO) and a line feed a test point of its own: `\\` and `#`
 * escaped as TAP escapes them, control characters as `\\n`, `\\x1b`.
 */
function tapDescription(text: string): string {
  return escapeControl(text.replace(/\\/g, '\\\\').replace(/#/g, '\\#'));
}
