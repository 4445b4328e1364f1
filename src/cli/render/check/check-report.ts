import type { ChalkInstance } from 'chalk';
import type { CheckResult } from '../../../app/check/check-result.js';
import type { CheckReportFormat } from './check-formats.js';
import { boundCheckResult } from './bounded-check-result.js';
import { renderCheckGithub, type GithubOptions } from './check-github.js';
import { renderCheckJson } from './check-json.js';
import { renderCheckJunit } from './check-junit.js';
import { renderCheckTap } from './check-tap.js';
import { renderCheckText } from './check-text.js';

/** A check result in one of the report formats, every finding bounded first. */
export function renderCheckReport(
  format: CheckReportFormat,
  unbounded: CheckResult,
  colors: ChalkInstance,
  options: GithubOptions & {
    /** `-q`: the text report prints its findings alone, no notes and no summary. */
    readonly quiet?: boolean;
    /** The command the report is of: JUnit's root name (default `cosi check`). */
    readonly title?: string;
    /** Whether the JSON report has the `resources` block (default: yes; `cosi test` has none). */
    readonly resources?: boolean;
  },
): string {
  const result = boundCheckResult(unbounded);
  switch (format) {
    case 'text':
      return renderCheckText(result, colors, { quiet: options.quiet === true });
    case 'json':
      return renderCheckJson(result, { resources: options.resources !== false });
    case 'junit':
      return renderCheckJunit(result, options.title);
    case 'tap':
      return renderCheckTap(result);
    case 'github':
      return renderCheckGithub(result, options);
  }
}
