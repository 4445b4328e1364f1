import { isFailure, type CheckCode, type CheckResult } from '../../../app/check/check-result.js';
import type { Finding } from '../../../loaders/finding.js';
import { groupDigits } from './group-digits.js';

/**
 * The most findings a report for people (text, github) lists in a run; the rest are counted in
 * one last line. The machine formats (json, junit, tap) list every one. A case's verdict and the
 * summary are the whole result's, whatever is listed.
 */
export const MAX_FINDINGS_SHOWN = 1000;

/**
 * What a failed case says when the load kept none of its findings: they are past the load's
 * cap (`MAX_FINDINGS_PER_LOAD`), counted in its `too-many-findings`.
 */
export const FINDINGS_NOT_LISTED =
  'invalid: its findings are past the limit of findings a run keeps (see too-many-findings)';

/** The findings a report lists in order, and what it leaves out past {@link MAX_FINDINGS_SHOWN}. */
export class ShownFindings {
  #shown = 0;
  #hidden = 0;
  #hiddenFailures = 0;

  constructor(private readonly result: CheckResult) {}

  /** Whether `finding` is listed; one that is not is counted. */
  take(finding: Finding<CheckCode>): boolean {
    // A load's own "and N more" is always listed: it counts what the load left out.
    if (finding.code === 'too-many-findings') return true;
    if (this.#shown < MAX_FINDINGS_SHOWN) {
      this.#shown++;
      return true;
    }
    this.#hidden++;
    if (isFailure(finding, this.result)) this.#hiddenFailures++;
    return false;
  }

  /** "and N more findings ..." once some were left out. */
  get rest(): string | undefined {
    if (this.#hidden === 0) return undefined;
    const failures = this.result.strict ? 'failures' : 'errors';
    return `and ${groupDigits(this.#hidden)} more finding${this.#hidden === 1 ? '' : 's'} (${groupDigits(this.#hiddenFailures)} of them ${failures}), not listed`;
  }
}
