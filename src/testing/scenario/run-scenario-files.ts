import { readFile } from 'node:fs/promises';
import type { LogRecord } from '../../engine/runtime/logger.js';
import type { CheckCase, CheckCode, CheckResult } from '../../app/check/check-result.js';
import { displayPath } from '../../app/display-path.js';
import type { Finding } from '../../loaders/finding.js';
import { parseScenarioFile } from './parse-scenario.js';
import { runScenario, scenarioResult, type ScenarioOutcome } from './run-scenario.js';
import type { Scenario } from './scenario.js';
import { findScenarioFiles } from './scenario-files.js';

/** What `cosi test` found: a case per step, in `cosi check`'s shape, and whether any is broken. */
export interface ScenarioRun {
  readonly result: CheckResult;
  /** A scenario file could not be read or parsed, or a scenario could not start (exit 2). */
  readonly broken: boolean;
  /** How many scenarios ran. */
  readonly scenarios: number;
}

/** How a scenario went, as data: what crosses back from the worker that ran it. */
export type ScenarioResult = Omit<ScenarioOutcome, 'scenario'>;

/**
 * Runs scenarios, one after the other, each on a fresh project; their results in their order.
 * `cosi test` runs them in a supervised worker thread (see `supervised-scenarios.ts`).
 */
export type ScenarioRunner = (scenarios: readonly Scenario[]) => Promise<ScenarioResult[]>;

export interface RunScenarioFilesOptions {
  readonly cwd: string;
  /** `cosi test --timeout` (see `RunScenarioOptions.timeout`), for the default runner. */
  readonly timeout?: number;
  /** `cosi test --name`: only the scenarios whose name it matches run (and are reported). */
  readonly name?: RegExp;
  /** `cosi test --config`, absolute: the config of the scenarios that name none. */
  readonly config?: string;
  /** `cosi test -v`: the controllers' logs, for the default runner. */
  readonly onLog?: (record: LogRecord) => void;
  /** Default: in this thread, with {@link runScenario}. */
  readonly runner?: ScenarioRunner;
}

/**
 * Finds the scenario files below `paths`, parses each and runs its scenarios one after the
 * other, each on a fresh project. A file with problems is reported whole (every problem at its
 * place) and none of its scenarios runs.
 */
export async function runScenarioFiles(
  paths: readonly string[],
  {
    cwd,
    timeout,
    name,
    config,
    onLog,
    runner = inThisThread(cwd, timeout, onLog, config),
  }: RunScenarioFilesOptions,
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
    const below = paths.length === 0 ? 'the working directory' : paths.join(', ');
    cases.push(
      brokenCase('(input)', [
        invalid(
          '',
          0,
          0,
          `no scenario files (*.cosi-test.yaml) found below ${below}: write one, a YAML file of name, steps (apply, edit, expect, ...) and, unless the config names them, manifests (cosi's docs/testing.md, "Scenarios: cosi test")`,
        ),
      ]),
    );
  }
  // Every file is read and parsed first: the scenarios then run in one go, and their cases are
  // put in file order after.
  const parts: ({ cases: CheckCase[] } | { file: string; scenarios: readonly Scenario[] })[] = [];
  /** Every scenario's name, chosen or not: what a filter that chose none names. */
  const names: string[] = [];
  for (const absolute of found.files) {
    const file = displayPath(cwd, absolute);
    let text: string;
    try {
      text = await readFile(absolute, 'utf8');
    } catch (error) {
      broken = true;
      parts.push({
        cases: [brokenCase(file, [invalid(file, 0, 0, `cannot read it: ${String(error)}`)])],
      });
      continue;
    }
    const parsed = parseScenarioFile(text, file, absolute);
    if (parsed.problems.length > 0) {
      broken = true;
      parts.push({
        cases: [
          brokenCase(
            file,
            parsed.problems.map((p) => invalid(p.at.file, p.at.line, p.at.col, p.message)),
          ),
        ],
      });
      continue;
    }
    const chosen = parsed.scenarios.filter(
      (scenario) => name === undefined || name.test(scenario.name),
    );
    parts.push({ file, scenarios: chosen });
    names.push(...parsed.scenarios.map((scenario) => scenario.name));
  }
  const all = parts.flatMap((part) => ('scenarios' in part ? part.scenarios : []));
  // A filter that selects nothing must not pass: a misspelt name would check nothing.
  if (name !== undefined && all.length === 0 && names.length > 0) {
    broken = true;
    cases.push(
      brokenCase('(input)', [
        invalid(
          '',
          0,
          0,
          `no scenario's name matches --name ${JSON.stringify(name.source)} (the scenarios: ${[...new Set(names)].join(', ')})`,
        ),
      ]),
    );
  }
  const results = all.length > 0 ? await runner(all) : [];
  let next = 0;
  for (const part of parts) {
    if (!('scenarios' in part)) {
      cases.push(...part.cases);
      continue;
    }
    for (const scenario of part.scenarios) {
      const result = results[next++];
      if (result === undefined) throw new Error(`no result for scenario ${scenario.name}`);
      scenarios++;
      if (result.broken) broken = true;
      cases.push(...casesOf(part.file, scenario, result));
    }
  }
  return { result: { cases, strict: false }, broken, scenarios };
}

function inThisThread(
  cwd: string,
  timeout: number | undefined,
  onLog: ((record: LogRecord) => void) | undefined,
  config: string | undefined,
): ScenarioRunner {
  return async (all) => {
    const results: ScenarioResult[] = [];
    for (const scenario of all) {
      const outcome = await runScenario(scenario, {
        cwd,
        ...(timeout === undefined ? {} : { timeout }),
        ...(onLog === undefined ? {} : { onLog }),
        ...(config === undefined ? {} : { config }),
      });
      results.push(scenarioResult(outcome));
    }
    return results;
  };
}

/**
 * A case per step, skipped when not run: `file › scenario › 2. expect`, with the file it is in and
 * the time it took (the first one also the scenario's start, which is no step's).
 */
function casesOf(file: string, scenario: Scenario, result: ScenarioResult): CheckCase[] {
  return result.steps.map((step, i) => ({
    check: 'scenarios',
    name: `${file} › ${scenario.name} › ${step.name}`,
    file,
    findings: step.findings,
    ...(step.skipped ? { skipped: 'not run: an earlier step failed' } : {}),
    ...(step.durationMs === undefined ? {} : { durationMs: step.durationMs }),
    ...(i === 0 && result.startMs !== undefined ? { setupMs: result.startMs } : {}),
  }));
}

/** The case of a file that cannot run (or of what was given: `(input)`, which is no file). */
function brokenCase(name: string, findings: Finding<CheckCode>[]): CheckCase {
  return { check: 'scenarios', name, ...(name === '(input)' ? {} : { file: name }), findings };
}

function invalid(file: string, line: number, col: number, message: string): Finding<CheckCode> {
  return { code: 'invalid-scenario', severity: 'error', message, file, line, col, pointer: '' };
}
