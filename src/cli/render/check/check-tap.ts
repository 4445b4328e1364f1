import { formatLocation } from '../../../loaders/finding.js';
import { caseFailed, isFailure, type CheckResult } from '../../../app/check/check-result.js';
import { FINDINGS_NOT_LISTED } from './shown-findings.js';

/** TAP version 13: one test point per case, findings as a YAML diagnostic block. */
export function renderCheckTap(result: CheckResult): string {
  const unrendered = result.unrendered ?? [];
  const out = ['TAP version 13', `1..${result.cases.length + unrendered.length}`];
  result.cases.forEach((c, i) => {
    const failed = caseFailed(c, result.strict);
    const skip = c.resource?.status === 'skipped' ? ' # SKIP' : '';
    out.push(`${failed ? 'not ok' : 'ok'} ${i + 1} - ${c.check}: ${c.name}${skip}`);
    const shown = c.findings.filter((f) => isFailure(f, result.strict) || failed);
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
      }
      out.push('  ...');
    }
  });
  // What was set aside as not manifests (charts, kustomizations): skipped points.
  unrendered.forEach((u, i) => {
    const reason = u.message.replace(/#/g, '\\#');
    out.push(`ok ${result.cases.length + i + 1} - set aside: ${u.path} # SKIP ${reason}`);
  });
  return `${out.join('\n')}\n`;
}
