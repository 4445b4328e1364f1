import * as path from 'node:path';
import { defineCheck, CHECK_FORMATS } from './check-definition.js';
import type { RunProjectOptions } from '../../app/run-project.js';
import type { RunRecord } from '../../engine/record/run-record.js';
import type { DefinitionRegistry } from '../../engine/resource/definition-registry.js';
import { checkProject, type CheckedProject } from '../../app/check/check-project.js';
import { writeTraceFile, type TraceFlags } from '../trace-file.js';
import type { ReportFlags } from '../report-option.js';
import { assembleReport } from '../../app/report/assemble-report.js';
import { reportTitle } from '../report-title.js';
import type { ReportData } from '../../app/report/report-data.js';
import type { Finding } from '../../loaders/finding.js';
import { ConfigError } from '../../loaders/load-config.js';
import { MissingManifestsError } from '../../app/config-manifests.js';
import { UnknownKindFilterError } from '../../loaders/kind-filter.js';
import {
  CHECK_CODES,
  caseFailed,
  setupFailed,
  type CheckCode,
  type CheckResult,
} from '../../app/check/check-result.js';
import { didYouMean } from '../../engine/did-you-mean.js';
import { FINDING_CODES, FINDING_SEVERITY } from '../../loaders/finding-code.js';
import { resolveExpect } from '../../app/check/run-checks.js';
import { GOLDEN_KEY_ENV, goldenKeyFromEnv } from '../../app/check/sealed-values.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT, exitCodeOf, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import type { WorkerFault } from '../../app/worker-fault.js';
import { useColor } from '../io.js';
import { parseFormat, toRunOptions, type CommonFlags } from '../options.js';
import { renderCheckReport } from '../render/check/check-report.js';
import { checkSummaryText } from '../render/check/check-text.js';
import { createColors } from '../render/report.js';

export interface CheckFlags extends CommonFlags, TraceFlags, ReportFlags {
  output: string;
  strict?: boolean;
  allowWarning?: string[];
  expect?: string;
  update?: boolean;
  keepVolatile?: boolean;
  previous?: string;
  skipKinds?: string[];
  rejectKinds?: string[];
  ignoreUnknownKinds?: boolean;
  typecheck?: boolean;
  each?: boolean;
}

/**
 * What `cosi check` shows: every case it found; `setup`: why the check could not run (said on
 * stderr too, while the report holds it as its one finding).
 */
export interface CheckCommandResult {
  readonly check: CheckResult;
  readonly setup?: string;
  /** The run's record, for `--trace`. */
  readonly record?: RunRecord;
  /** The project's types, for `--trace` to name a Kubernetes object's fields as its document's. */
  readonly registry?: DefinitionRegistry;
  /** With `--report`: what the HTML report shows. */
  readonly report?: ReportData;
  /** The project's config file, when one was loaded: where CI annotates a finding of no file. */
  readonly config?: string;
}

/** `cosi check -f PATH...`: the CI gate: validate, converge, compare, report. */
export const checkCommand: CliCommand<[string[], CheckFlags], CheckCommandResult> = {
  define: defineCheck,
  run: check,
  render: renderCheck,
};

export async function check(
  io: CliIo,
  paths: string[],
  flags: CheckFlags,
): Promise<CommandResult<CheckCommandResult>> {
  parseFormat(flags.output, CHECK_FORMATS);
  let checked: CheckedProject;
  // A file written at the end that cannot be: said before the project runs (and no page made).
  const unwritable = await unwritableOutput([flags.trace, flags.report], io.cwd);
  try {
    if (flags.update && flags.expect === undefined) {
      throw new CliError('--update needs --expect <dir>');
    }
    if (flags.each === true) {
      const alone = (['expect', 'report', 'trace'] as const).find((f) => flags[f] !== undefined);
      if (alone !== undefined) {
        throw new CliError(
          `--each checks several worlds: --${alone} takes one; check that path on its own`,
        );
      }
    }
    if (unwritable !== undefined) throw unwritable;
    const runOptions: RunProjectOptions = {
      ...(await toRunOptions(flags, io, {
        paths,
        // The report's lineage and timeline come from the record.
        record: flags.trace !== undefined || flags.report !== undefined,
      })),
      // The report of a project whose manifests have errors still shows its graph and the
      // resources that loaded; nothing is run.
      ...(flags.report === undefined ? {} : { openInvalid: true }),
      ...(flags.previous === undefined ? {} : { previous: flags.previous }),
      ...(flags.skipKinds === undefined ? {} : { skipKinds: flags.skipKinds }),
      ...(flags.rejectKinds === undefined ? {} : { rejectKinds: flags.rejectKinds }),
      ...(flags.ignoreUnknownKinds === true ? { ignoreUnknownKinds: true } : {}),
      ...(flags.strict === true ? { strictSchemas: true } : {}),
    };
    const allowedWarnings = allowedWarningCodes(flags);
    const goldenKey = goldenKeyFromEnv(io.env);
    const checkOptions = {
      strict: flags.strict === true,
      ...(allowedWarnings.length > 0 ? { allowedWarnings } : {}),
      update: flags.update === true,
      volatile: flags.keepVolatile === true,
      ...(goldenKey === undefined ? {} : { goldenKey }),
      cwd: io.cwd,
      ...(flags.typecheck === true ? { typecheck: true } : {}),
      ...(flags.expect !== undefined ? { expect: resolveExpect(flags.expect, io.cwd) } : {}),
    };
    if (flags.each === true) {
      if (runOptions.files.length === 0) {
        throw new CliError('--each needs the paths to check one by one: cosi check --each apps/*/');
      }
      const { checkEach } = await import('../../app/check/check-each.js');
      const { worlds, result } = await checkEach(runOptions, checkOptions, {
        ...(io.knownFaults === undefined ? {} : { knownFaults: io.knownFaults }),
        ...(io.monitor?.worldStarted ? { onWorld: io.monitor.worldStarted } : {}),
        setupFailures,
      });
      return { exitCode: worstExitCode(worlds, result), result: { check: result } };
    }
    // Its controllers stopped the worker of a check before (see `KnownFault`): its manifests'
    // cases, and the fault's, without running them again.
    const fault = io.knownFaults?.find((known) => known.world === undefined)?.fault;
    if (fault !== undefined) {
      const again = await checkProject({ ...runOptions, converge: false }, checkOptions);
      const { withFaultCases } = await import('../../app/check/fault-cases.js');
      const result = withFaultCases(again.result, fault, again.run);
      return {
        exitCode: worstExitCode([{ run: again.run, result, fault }], result),
        result: {
          check: result,
          ...(again.run.config ? { config: again.run.config.file } : {}),
        },
      };
    }
    checked = await checkProject(runOptions, checkOptions);
  } catch (error) {
    // CI reads the report, not stderr: a check that cannot run still writes a valid one.
    const failures = setupFailures(error);
    if (failures === undefined) throw error;
    const result = await withConfigTypes(setupFailed(failures), error, flags.typecheck, io.cwd);
    const report = unwritable === undefined ? reportOf(flags, io, paths, result) : undefined;
    return {
      exitCode: EXIT.usage,
      result: { check: result, setup: setupMessage(error), ...(report ? { report } : {}) },
    };
  }
  const { run, result } = checked;
  const report = run.outcome?.report;
  // A project that was not run (invalid manifests, opened for the report) has nothing to trace.
  const record = report && run.outcome.project.record;
  const exitCode = checkExitCode([run], result);
  const reportData = reportOf(flags, io, paths, result, run);
  return {
    exitCode,
    result: {
      check: result,
      ...(run.config ? { config: run.config.file } : {}),
      ...(record ? { record, registry: run.outcome.project.registry } : {}),
      ...(reportData ? { report: reportData } : {}),
    },
  };
}

/** Why the first of the files a check writes at its end cannot be written, if one cannot. */
async function unwritableOutput(
  files: readonly (string | undefined)[],
  cwd: string,
): Promise<Error | undefined> {
  const given = files.filter((file) => file !== undefined);
  if (given.length === 0) return undefined;
  const { checkOutputPath } = await import('../output-file.js');
  for (const file of given) {
    try {
      await checkOutputPath(file, cwd);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
  return undefined;
}

/** 3 when a run did not converge, else 1 when a case failed, else 0. */
function checkExitCode(runs: readonly CheckedProject['run'][], result: CheckResult): ExitCode {
  if (
    runs.some((run) => run.outcome?.report && exitCodeOf(run.outcome.report) === EXIT.notConverged)
  ) {
    return EXIT.notConverged;
  }
  return result.cases.some((c) => caseFailed(c, result)) ? EXIT.findings : EXIT.ok;
}

/**
 * The worst of several worlds' (`--each`, or one checked again after a fault): 70 when cosi
 * itself failed on one, 2 when one could not be checked (its config did not load, or its code stopped cosi while it loaded), else 3 when
 * one did not converge (a controller stuck past the bound too), else as {@link checkExitCode}.
 */
function worstExitCode(
  worlds: readonly {
    readonly run?: CheckedProject['run'];
    readonly result: CheckResult;
    readonly fault?: WorkerFault;
  }[],
  result: CheckResult,
): ExitCode {
  if (worlds.some((w) => w.fault?.kind === 'internal')) return EXIT.internal;
  const notChecked = worlds.some((w) => w.run === undefined || w.fault?.kind === 'config');
  if (notChecked) return EXIT.usage;
  if (worlds.some((w) => w.fault?.kind === 'stuck')) return EXIT.notConverged;
  return checkExitCode(
    worlds.flatMap((w) => (w.run === undefined ? [] : [w.run])),
    result,
  );
}

/** With `--report`: the report's data, from the check and its run. */
function reportOf(
  flags: CheckFlags,
  io: CliIo,
  paths: readonly string[],
  result: CheckResult,
  run?: CheckedProject['run'],
): ReportData | undefined {
  if (flags.report === undefined) return undefined;
  const given = [...(flags.file ?? []), ...paths];
  return assembleReport({
    result,
    summaryText: checkSummaryText(result),
    cwd: io.cwd,
    title: reportTitle(given, io.cwd),
    ...(run ? { run } : {}),
  });
}

/**
 * The report to stdout in the `-o` format (a setup failure to stderr as well), then `--trace`
 * and `--report`.
 */
export async function renderCheck(
  io: CliIo,
  { result }: CommandResult<CheckCommandResult>,
  paths: string[],
  flags: CheckFlags,
): Promise<void> {
  const format = parseFormat(flags.output, CHECK_FORMATS);
  const colors = createColors(format === 'text' && useColor(io, flags.color));
  // The text report on a terminal, or on the stderr's own file or pipe (2>&1), has just said it
  // there: once is enough. A machine format, or a report piped away (to a file, to CI) from
  // stderr, keeps it on stderr too, so that the log holds it.
  const textSaysIt = format === 'text' && (io.isTTY || io.stderrJoinsStdout === true);
  if (result.setup !== undefined && !textSaysIt) {
    io.stderr.write(`cosi: ${result.setup}\n`);
  }
  // What --update changed, as init names what it writes; stderr, since stdout is the report.
  const update = result.check.goldenUpdate;
  for (const file of update?.wrote ?? []) io.stderr.write(`wrote ${file}\n`);
  for (const file of update?.removed ?? []) io.stderr.write(`removed ${file}\n`);
  for (const file of update?.unsealed ?? []) {
    io.stderr.write(
      `cosi: ${file}: sensitive values recorded as *** (${GOLDEN_KEY_ENV} is not set): a check cannot compare them; set it and record again\n`,
    );
  }
  io.stdout.write(
    renderCheckReport(format, result.check, colors, {
      cwd: io.cwd,
      workspace: io.env.GITHUB_WORKSPACE,
      // A finding of no file is about the project: its config, else what was given to check.
      anchor: result.config ?? [...(flags.file ?? []), ...paths][0] ?? io.cwd,
      quiet: flags.quiet === true,
    }),
  );
  // A golden file that no longer matches: how to accept a meant change, as the job's file says.
  if (format === 'text' && flags.expect !== undefined && flags.update !== true) {
    const differ = result.check.cases.filter(
      (c) =>
        c.check === 'expectations' &&
        caseFailed(c, result.check) &&
        c.findings.some((f) => GOLDEN_DIFFERENCES.has(f.code)),
    ).length;
    if (differ > 0) {
      io.stderr.write(
        `cosi: ${differ} resource${differ === 1 ? '' : 's'} differ${differ === 1 ? 's' : ''} from the golden files in ${flags.expect}: if the change is meant, run the same command with --update to record it\n`,
      );
    }
  }
  if (flags.trace !== undefined && result.record) {
    await writeTraceFile(flags.trace, result.record, {
      cwd: io.cwd,
      stable: flags.stable === true,
      ...(result.registry ? { registry: result.registry } : {}),
    });
  }
  if (flags.report !== undefined && result.report) {
    // The page's renderers are loaded only for a check that writes one.
    const { writeReportFile } = await import('../report-file.js');
    await writeReportFile(flags.report, result.report, { cwd: io.cwd });
  }
}

/** The findings of a golden tree that `--update` would bring in line with the converged state. */
const GOLDEN_DIFFERENCES: ReadonlySet<string> = new Set([
  'missing-resource',
  'unexpected-resource',
  'unexpected-state',
]);

/** A setup failure's line on stderr: with its place, as other commands say it. */
function setupMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * With `--typecheck`, a config that did not load is type-checked all the same: a type error
 * is often what its loading tripped on, and `tsc` would report both.
 */
async function withConfigTypes(
  result: CheckResult,
  error: unknown,
  typecheck: boolean | undefined,
  cwd: string,
): Promise<CheckResult> {
  if (typecheck !== true || !(error instanceof ConfigError)) return result;
  if (!/\.[cm]?[jt]s$/.test(error.file)) return result;
  const { typecheckConfig } = await import('../../app/check/typecheck-config.js');
  const types = await typecheckConfig(path.resolve(cwd, error.file), cwd);
  return { ...result, cases: [types, ...result.cases] };
}

/**
 * A config or usage error as the findings of a check that could not run: a config's, one per
 * problem, each at its place in the file.
 */
function setupFailures(error: unknown): Finding<CheckCode>[] | undefined {
  const at = { line: 0, col: 0, pointer: '', severity: 'error' as const };
  if (error instanceof ConfigError) {
    // A flag's value (`--config`) has no file: the message names it.
    if (error.file.startsWith('--')) {
      return [{ ...at, code: 'config-error', file: '', message: error.message }];
    }
    // The place is the finding's own; the message says what is wrong there.
    return error.placedProblems().map((problem) => ({
      ...at,
      ...(problem.at === undefined ? {} : { line: problem.at.line, col: problem.at.col }),
      code: 'config-error',
      // A module the config imports is the place of what failed in it.
      file: problem.at?.file ?? error.file,
      message: problem.message,
    }));
  }
  if (
    error instanceof CliError ||
    error instanceof MissingManifestsError ||
    error instanceof UnknownKindFilterError
  )
    return [{ ...at, code: 'usage-error', file: '', message: error.message }];
  return undefined;
}

/**
 * `--allow-warning`'s codes, each a code some warning has: an error's code, which always fails,
 * or one no finding has, is a usage error, as is the flag without `--strict`.
 */
function allowedWarningCodes(flags: CheckFlags): CheckCode[] {
  const given = flags.allowWarning ?? [];
  if (given.length === 0) return [];
  if (flags.strict !== true) {
    throw new CliError('--allow-warning needs --strict: without it no warning fails');
  }
  const known: readonly string[] = [...FINDING_CODES, ...CHECK_CODES];
  return given.map((code) => {
    if (!known.includes(code)) {
      const guess = didYouMean(code, known);
      throw new CliError(
        `--allow-warning: no finding has the code ${JSON.stringify(code)}${guess === undefined ? '' : ` (did you mean ${guess}?)`}`,
      );
    }
    if ((FINDING_SEVERITY as Readonly<Record<string, string>>)[code] === 'error') {
      throw new CliError(
        `--allow-warning: ${code} is an error, which always fails; only a warning's code can be allowed`,
      );
    }
    return code as CheckCode;
  });
}
