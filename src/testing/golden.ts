import * as path from 'node:path';
import { caseFailed } from '../app/check/check-result.js';
import { compareExpectations, writeExpectations } from '../app/check/expectations.js';
import { GOLDEN_KEY_ENV, goldenKeyFromEnv } from '../app/check/sealed-values.js';
import { displayPath } from '../app/display-path.js';
import { selectResources } from '../app/resource-query.js';
import { takeSnapshot } from '../engine/state/state-snapshot.js';
import { formatFinding } from '../loaders/finding.js';
import { CosiAssertionError, failAtCaller } from './assertion-error.js';
import { unsettledNote } from './assertions.js';
import type { TestProject } from './test-project.js';

/** The environment variable that makes {@link expectGolden} record instead of compare. */
export const UPDATE_GOLDEN_ENV = 'COSI_UPDATE_GOLDEN';

/** How {@link expectGolden} compares, or records. */
export interface GoldenOptions {
  /**
   * Record the state in the golden tree instead of comparing with it, as
   * `cosi check --expect DIR --update` does. Default: the environment variable
   * `COSI_UPDATE_GOLDEN` is set (to anything but `''` or `0`).
   */
  readonly update?: boolean;
  /** Keep and compare `version`, `created` and `updated`, as `cosi check --volatile` does. */
  readonly volatile?: boolean;
  /**
   * The key of the fingerprints that stand for a sensitive type's values in the golden tree, as
   * `cosi check --expect` takes it. Default: the environment variable `COSI_GOLDEN_KEY`. Without
   * one, those values are recorded as `***` and cannot be compared: the assertion fails saying so.
   */
  readonly key?: string;
}

/**
 * Asserts that the project's state is the golden tree `dir` (relative to the project's `cwd`):
 * what `cosi check --expect DIR` compares, one `<type>.yaml` per type of the state, as
 * `cosi check --expect DIR --update` and `cosi init` write it, so that a test and the CI gate
 * share one golden tree. With `update` (or `COSI_UPDATE_GOLDEN=1` in the environment, as Go's
 * tests take `-update`) it writes the tree from the state instead, unless the last convergence
 * did not settle.
 *
 * @example
 * expectConverged(await project.converge());
 * await expectGolden(project, 'expected'); // COSI_UPDATE_GOLDEN=1 npx vitest run  records it
 * @throws CosiAssertionError naming each resource missing, unexpected or different (with a
 *   diff), or why the tree cannot be read or recorded.
 */
export async function expectGolden(
  project: TestProject,
  dir: string,
  options: GoldenOptions = {},
): Promise<void> {
  await failAtCaller(expectGolden, async () => {
    const absolute = path.resolve(project.cwd, dir);
    const shown = displayPath(project.cwd, absolute);
    const snapshot = await takeSnapshot(project.project.state);
    const groups = selectResources({ project: project.project, snapshot }, {});
    const golden = { volatile: options.volatile === true, key: options.key ?? goldenKeyFromEnv() };
    if (options.update ?? updateRequested()) {
      const report = project.lastReport;
      // The state at the end of an `advance` is as deterministic as a settled one: a poller's
      // next visit still due is no reason not to record it; a controller failing is.
      const spanEnd = project.lastReportIsOfSpan && report?.reason === 'max-time';
      if (report !== undefined && !report.converged && !spanEnd) {
        throw new CosiAssertionError(
          `not recording ${shown}: ${unsettledNote(report, project.lastReportIsOfSpan) || `the last convergence did not settle (${report.reason})`}`,
        );
      }
      await writeExpectations(absolute, groups, golden, shown);
      return;
    }
    const cases = await compareExpectations(absolute, shown, groups, golden);
    // A test has no warnings to show: a sensitive value it could not compare fails it.
    const failed = cases.filter((c) => caseFailed(c, { strict: true }));
    if (failed.length === 0) return;
    const findings = failed.flatMap((c) => c.findings);
    const lines = findings.map((f) =>
      f.diff === undefined ? formatFinding(f) : `${formatFinding(f)}\n${indent(f.diff)}`,
    );
    const note = unsettledNote(project.lastReport, project.lastReportIsOfSpan);
    const uncompared = findings.some((f) => f.code === 'sensitive-not-compared');
    throw new CosiAssertionError(
      [
        `expected the state to match the golden tree ${shown} (${failed.length} ${failed.length === 1 ? 'resource differs' : 'resources differ'}${uncompared ? ' or could not be compared' : ''})`,
        ...(note === '' ? [] : [note]),
        '',
        ...lines,
        '',
        ...(uncompared
          ? [
              `A sensitive type's values are compared by fingerprints keyed with ${GOLDEN_KEY_ENV} (or { key }): set it as the golden tree was recorded with it, or record the tree with it.`,
            ]
          : []),
        `If the change is meant, record the state: run the test with ${UPDATE_GOLDEN_ENV}=1 (or { update: true }), or cosi check --expect ${shown} --update.`,
      ].join('\n'),
    );
  });
}

/** Whether the environment asks goldens to be recorded. */
function updateRequested(): boolean {
  const value = process.env[UPDATE_GOLDEN_ENV];
  return value !== undefined && value !== '' && value !== '0';
}

function indent(text: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
