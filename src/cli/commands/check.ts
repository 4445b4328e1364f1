import { Command } from 'commander';
import { runProject, type ProjectRun } from '../../app/run-project.js';
import { addTraceOption, writeTraceFile, type TraceFlags } from '../trace-file.js';
import type { Finding } from '../../loaders/finding.js';
import { ConfigError } from '../../loaders/load-config.js';
import { caseFailed, type CheckCode } from '../check/check-result.js';
import { resolveExpect, runChecks } from '../check/run-checks.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT, exitCodeOf } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { useColor } from '../io.js';
import {
  addPathArguments,
  addProjectOptions,
  outputOption,
  parseFormat,
  toRunOptions,
  type CommonFlags,
} from '../options.js';
import { boundCheckResult } from '../check/bounded-check-result.js';
import { renderCheckGithub, type GithubOptions } from '../render/check/check-github.js';
import { renderCheckJson } from '../render/check/check-json.js';
import { renderCheckJunit } from '../render/check/check-junit.js';
import { renderCheckTap } from '../render/check/check-tap.js';
import { renderCheckText } from '../render/check/check-text.js';
import { createColors } from '../render/report.js';

const FORMATS = ['text', 'json', 'junit', 'tap', 'github'] as const;
type CheckFormat = (typeof FORMATS)[number];

export interface CheckFlags extends CommonFlags, TraceFlags {
  output: string;
  strict?: boolean;
  expect?: string;
  update?: boolean;
  keepVolatile?: boolean;
  previous?: string;
}

/** `cosi check -f PATH...`: the CI gate: validate, converge, compare, report. */
export const checkCommand: CliCommand<[string[], CheckFlags]> = { define, run: check };

function define(): Command {
  const command = new Command('check')
    .summary('validate manifests, run the controllers and report, for CI')
    .description(
      'Validates every manifest, runs the controllers to convergence and reports every finding: ' +
        'invalid manifests, failing controllers, non-convergence and, with --expect, differences ' +
        'from a golden tree of expected resources. Ends with "N passed, N failed".',
    );
  addTraceOption(addProjectOptions(addPathArguments(command)))
    .addOption(outputOption(FORMATS, 'text'))
    .option(
      '--strict',
      'fail on warnings too: unknown fields, types no controller reads, YAML 1.1 booleans',
    )
    .option('--expect <dir>', 'compare the converged state with the expected manifests in <dir>')
    .option(
      '--update',
      'with --expect: write the converged state to <dir> instead of comparing (only a run that converged)',
    )
    .option(
      '--previous <ref-or-dir>',
      'check CEL transition rules (oldSelf) against this previous revision: a directory, or a git revision such as origin/main',
    )
    .option(
      '--keep-volatile',
      'with --expect: record and compare versions and timestamps too (left out by default)',
    )
    .addHelpText(
      'after',
      `
Examples:
  cosi check -f manifests/
  cosi check -f manifests/ --strict -o github
  cosi check -f manifests/ --expect expected/ --update   # record the golden tree
  cosi check -f manifests/ --expect expected/ -o junit > report.xml
  cosi check -f manifests/ --previous origin/main   # transition rules, as an update would

Exit codes: 0 clean, 1 findings, 2 usage or config error, 3 did not converge.`,
    );
  return command;
}

export async function check(io: CliIo, paths: string[], flags: CheckFlags): Promise<CommandResult> {
  const format = parseFormat(flags.output, FORMATS);
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
