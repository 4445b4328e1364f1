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
      name:
        c.check === 'scenarios'
          ? boundStepName(c.name)
          : shortenMessage(c.name, MAX_CASE_NAME_LENGTH),
      findings: c.findings.map(boundFinding),
    })),
  };
}

/** The most of a step's case name its scenario (`file › scenario`) keeps when the name is cut. */
const MAX_SCENARIO_NAME_LENGTH = 97;
/** The least room a cut step name keeps. */
const MIN_STEP_NAME_LENGTH = 60;

/**
 * A scenario step's case name (`file › scenario › 2. step`) cut with its scenario and its step
 * each cut on its own, the scenario's part cut alike in every step's case (however long its
 * step's name) and so the same in each, as the summary
 * (`scenarios: N passed`) groups the steps by it. A cut through the middle of the whole name
 * gave one scenario's steps different scenarios, a scenario counted once per long step name.
 */
function boundStepName(name: string): string {
  const cut = name.lastIndexOf(' › ');
  if (cut < 0) return shortenMessage(name, MAX_CASE_NAME_LENGTH);
  const scenario = shortenMessage(name.slice(0, cut), MAX_SCENARIO_NAME_LENGTH);
  const room = Math.max(MIN_STEP_NAME_LENGTH, MAX_CASE_NAME_LENGTH - scenario.length - 3);
  return `${scenario} › ${shortenMessage(name.slice(cut + 3), room)}`;
}
