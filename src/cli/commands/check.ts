import { defineCheck, CHECK_FORMATS } from './check-definition.js';
import { runProject, type ProjectRun } from '../../app/run-project.js';
import { writeTraceFile, type TraceFlags } from '../trace-file.js';
import type { Finding } from '../../loaders/finding.js';
import { ConfigError } from '../../loaders/load-config.js';
import { caseFailed, type CheckCode } from '../../app/check/check-result.js';
import { resolveExpect, runChecks } from '../../app/check/run-checks.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT, exitCodeOf } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { useColor } from '../io.js';
import { parseFormat, toRunOptions, type CommonFlags } from '../options.js';
import { boundCheckResult } from '../render/check/bounded-check-result.js';
import { renderCheckGithub, type GithubOptions } from '../render/check/check-github.js';
import { renderCheckJson } from '../render/check/check-json.js';
import { renderCheckJunit } from '../render/check/check-junit.js';
import { renderCheckTap } from '../render/check/check-tap.js';
import { renderCheckText } from '../render/check/check-text.js';
import { createColors } from '../render/report.js';

type CheckFormat = (typeof CHECK_FORMATS)[number];

export interface CheckFlags extends CommonFlags, TraceFlags {
  output: string;
  strict?: boolean;
  expect?: string;
  update?: boolean;
  keepVolatile?: boolean;
  previous?: string;
  skipKinds?: string[];
  rejectKinds?: string[];
  ignoreUnknownKinds?: boolean;
}

/** `cosi check -f PATH...`: the CI gate: validate, converge, compare, report. */
export const checkCommand: CliCommand<[string[], CheckFlags]> = { define: defineCheck, run: check };

export async function check(io: CliIo, paths: string[], flags: CheckFlags): Promise<CommandResult> {
  const format = parseFormat(flags.output, CHECK_FORMATS);
  const colors = createColors(format === 'text' && useColor(io, flags.color));
  const renderOptions = { cwd: io.cwd, workspace: io.env.GITHUB_WORKSPACE };
  let run: ProjectRun;
  try {
    if (flags.update && flags.expect === undefined) {
      throw new CliError('--update needs --expect <dir>');
    }
    run = await runProject({
      ...(await toRunOptions(flags, io, { paths, record: flags.trace !== undefined })),
      ...(flags.previous === undefined ? {} : { previous: flags.previous }),
      ...(flags.skipKinds === undefined ? {} : { skipKinds: flags.skipKinds }),
      ...(flags.rejectKinds === undefined ? {} : { rejectKinds: flags.rejectKinds }),
      ...(flags.ignoreUnknownKinds === true ? { ignoreUnknownKinds: true } : {}),
    });
  } catch (error) {
    // CI reads the report, not stderr: a check that cannot run still writes a valid one.
    const failure = setupFailure(error);
    if (failure === undefined) throw error;
    io.stderr.write(`cosi: ${failure.message}\n`);
    const result = {
      cases: [{ check: 'setup' as const, name: 'setup', findings: [failure] }],
      strict: false,
    };
    io.stdout.write(render(format, result, colors, renderOptions));
    return { exitCode: EXIT.usage };
  }
  const result = await runChecks(run, {
    strict: flags.strict === true,
    update: flags.update === true,
    volatile: flags.keepVolatile === true,
    cwd: io.cwd,
    ...(flags.expect !== undefined ? { expect: resolveExpect(flags.expect, io.cwd) } : {}),
  });
  io.stdout.write(render(format, result, colors, renderOptions));
  const record = run.outcome?.project.record;
  if (flags.trace !== undefined && record) {
    await writeTraceFile(flags.trace, record, { cwd: io.cwd, stable: flags.stable === true });
  }
  const report = run.outcome?.report;
  if (report && exitCodeOf(report) === EXIT.notConverged) return { exitCode: EXIT.notConverged };
  return {
    exitCode: result.cases.some((c) => caseFailed(c, result.strict)) ? EXIT.findings : EXIT.ok,
  };
}

/** A config or usage error as the one finding of a check that could not run. */
function setupFailure(error: unknown): Finding<CheckCode> | undefined {
  const at = { line: 0, col: 0, pointer: '', severity: 'error' as const };
  if (error instanceof ConfigError) {
    return {
      ...at,
      code: 'config-error',
      file: error.file.startsWith('--') ? '' : error.file,
      message: error.message,
    };
  }
  if (error instanceof CliError)
    return { ...at, code: 'usage-error', file: '', message: error.message };
  return undefined;
}

function render(
  format: CheckFormat,
  unbounded: Parameters<typeof renderCheckJson>[0],
  colors: ReturnType<typeof createColors>,
  options: GithubOptions,
): string {
  const result = boundCheckResult(unbounded);
  switch (format) {
    case 'text':
      return renderCheckText(result, colors);
    case 'json':
      return renderCheckJson(result);
    case 'junit':
      return renderCheckJunit(result);
    case 'tap':
      return renderCheckTap(result);
    case 'github':
      return renderCheckGithub(result, options);
  }
}
