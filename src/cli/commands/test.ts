import type { CheckResult } from '../../app/check/check-result.js';
import { caseFailed } from '../../app/check/check-result.js';
import * as path from 'node:path';
import type { LogRecord } from '../../engine/runtime/logger.js';
import { runScenarioFiles } from '../../testing/scenario/run-scenario-files.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { useColor } from '../io.js';
import { parseDuration } from '../duration.js';
import { parseFormat } from '../options.js';
import { CHECK_REPORT_FORMATS } from '../render/check/check-formats.js';
import { renderCheckReport } from '../render/check/check-report.js';
import { createColors } from '../render/report.js';
import { defineTest } from './test-definition.js';

export interface TestFlags {
  output: string;
  /** `-f`: more paths, as every other command takes them. */
  file?: string[];
  color?: boolean;
  timeout?: string;
  /** `--name`: a regular expression the names of the scenarios to run match. */
  name?: string;
  /** `-v`: the controllers' logs to stderr. */
  verbose?: boolean;
  /** `--config`: the config of the scenarios that name none. */
  config?: string;
}

/** `cosi test [PATH...]`: run the scenario files, report each step. */
export const testCommand: CliCommand<[string[], TestFlags], CheckResult> = {
  define: defineTest,
  run: test,
  render: renderTest,
};

export async function test(
  io: CliIo,
  paths: string[],
  flags: TestFlags,
): Promise<CommandResult<CheckResult>> {
  parseFormat(flags.output, CHECK_REPORT_FORMATS);
  const timeout =
    flags.timeout === undefined ? undefined : parseDuration(flags.timeout, '--timeout');
  const config = flags.config === undefined ? undefined : path.resolve(io.cwd, flags.config);
  // -v: the controllers' logs to stderr, as apply -v writes them (the renderer loaded only then).
  const formatLog = flags.verbose ? (await import('../render/logs.js')).formatLog : undefined;
  const onLog = formatLog && ((record: LogRecord) => io.stderr.write(formatLog(record)));
  // The scenarios' projects run in a worker thread the main thread supervises.
  const runner = io.isolateUserCode
    ? (await import('../supervised-scenarios.js')).supervisedScenarioRunner(
        io.cwd,
        timeout,
        onLog,
        config,
      )
    : undefined;
  const name = flags.name === undefined ? undefined : namePattern(flags.name);
  const run = await runScenarioFiles(scenarioPaths(paths, flags), {
    cwd: io.cwd,
    ...(name === undefined ? {} : { name }),
    ...(timeout === undefined ? {} : { timeout }),
    ...(onLog ? { onLog } : {}),
    ...(config === undefined ? {} : { config }),
    ...(runner ? { runner } : {}),
  });
  const exitCode = run.broken
    ? EXIT.usage
    : run.result.cases.some((c) => caseFailed(c, { strict: false }))
      ? EXIT.findings
      : EXIT.ok;
  return { exitCode, result: run.result };
}

/** `--name`'s pattern, as vitest's `-t` and `go test -run` take one: unanchored, case-sensitive. */
function namePattern(text: string): RegExp {
  try {
    return new RegExp(text, 'u');
  } catch (error) {
    throw new CliError(
      `--name: invalid regular expression ${JSON.stringify(text)}: ${(error as Error).message}`,
    );
  }
}

/** The paths to search: the arguments, then `-f`'s. */
function scenarioPaths(paths: readonly string[], flags: TestFlags): string[] {
  return [...paths, ...(flags.file ?? [])];
}

export function renderTest(
  io: CliIo,
  { result }: CommandResult<CheckResult>,
  paths: string[],
  flags: TestFlags,
): void {
  const format = parseFormat(flags.output, CHECK_REPORT_FORMATS);
  const colors = createColors(format === 'text' && useColor(io, flags.color));
  io.stdout.write(
    renderCheckReport(format, result, colors, {
      cwd: io.cwd,
      workspace: io.env.GITHUB_WORKSPACE,
      // A finding of no file (no scenario found, a usage error) is about what was given.
      anchor: scenarioPaths(paths, flags)[0] ?? io.cwd,
      title: 'cosi test',
      resources: false,
    }),
  );
}
