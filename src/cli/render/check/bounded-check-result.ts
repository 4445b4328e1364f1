import { boundFinding } from '../../../loaders/finding.js';
import { shortenMessage } from '../../../loaders/shorten.js';
import type { CheckResult } from '../../../app/check/check-result.js';

/** The longest case name a report shows (a file, a resource key, a controller). */
const MAX_CASE_NAME_LENGTH = 160;

/**
 * The result with every finding bounded ({@link boundFinding}) and long case names cut: the one
 * place every report format goes through, so that no quoted value (a controller's error, a
 * resource id in a key, a config error) makes a report line grow with the input.
 */
export function boundCheckResult(result: CheckResult): CheckResult {
  return {
    ...result,
    cases: result.cases.map((c) => ({
      ...c,
      name: shortenMessage(c.name, MAX_CASE_NAME_LENGTH),
      findings: c.findings.map(boundFinding),
    })),
  };
}
