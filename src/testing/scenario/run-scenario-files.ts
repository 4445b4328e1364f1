import { readFile } from 'node:fs/promises';
import type { CheckCase, CheckCode, CheckResult } from '../../app/check/check-result.js';
import { displayPath } from '../../app/display-path.js';
import type { Finding } from '../../loaders/finding.js';
import { parseScenarioFile } from './parse-scenario.js';
import { runScenario, type ScenarioOutcome } from './run-scenario.js';
import { findScenarioFiles } from './scenario-files.js';

/** What `cosi test` found: a case per step, in `cosi check`'s shape, and whether any is broken. */
export interface ScenarioRun {
  readonly result: CheckResult;
  /** A scenario file could not be read or parsed, or a scenario could not start (exit 2). */
  readonly broken: boolean;
  /** How many scenarios ran. */
  readonly scenarios: number;
}

/**
 * Finds the scenario files below `paths`, parses each and runs its scenarios one after the
 * other, each on a fresh project. A file with problems is reported whole (every problem at its
 * place) and none of its scenarios runs.
 */
export async function runScenarioFiles(
  paths: readonly string[],
  { cwd }: { readonly cwd: string },
): Promise<ScenarioRun> {
  const found = await findScenarioFiles(paths, cwd);
  const cases: CheckCase[] = [];
  let broken = false;
  let scenarios = 0;
  for (const given of found.missing) {
    broken = true;
    cases.push(brokenCase(given, [invalid(given, 0, 0, 'no such file or directory')]));
  }
  if (found.files.length === 0 && found.missing.length === 0) {
    broken = true;
    cases.push(
      brokenCase('(input)', [invalid('', 0, 0, 'no scenario files (*.cosi-test.yaml) found')]),
    );
  }
  for (const absolute of found.files) {
    const file = displayPath(cwd, absolute);
    let text: string;
    try {
      text = await readFile(absolute, 'utf8');
    } catch (error) {
      broken = true;
      cases.push(brokenCase(file, [invalid(file, 0, 0, `cannot read it: ${String(error)}`)]));
      continue;
    }
    const parsed = parseScenarioFile(text, file, absolute);
    if (parsed.problems.length > 0) {
      broken = true;
      cases.push(
        brokenCase(
          file,
          parsed.problems.map((p) => invalid(p.at.file, p.at.line, p.at.col, p.message)),
        ),
      );
      continue;
    }
    for (const scenario of parsed.scenarios) {
      scenarios++;
      const outcome = await runScenario(scenario, { cwd });
      if (outcome.broken) broken = true;
      cases.push(...casesOf(file, outcome));
    }
  }
  return { result: { cases, strict: false }, broken, scenarios };
}

/** A case per step run: `file › scenario › 2. expect`. */
function casesOf(file: string, outcome: ScenarioOutcome): CheckCase[] {
  return outcome.steps.map((step) => ({
    check: 'scenarios',
    name: `${file} › ${outcome.scenario.name} › ${step.name}`,
    findings: step.findings,
  }));
}

function brokenCase(name: string, findings: Finding<CheckCode>[]): CheckCase {
  return { check: 'scenarios', name, findings };
}

function invalid(file: string, line: number, col: number, message: string): Finding<CheckCode> {
  return { code: 'invalid-scenario', severity: 'error', message, file, line, col, pointer: '' };
}
