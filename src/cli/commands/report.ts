import { defineReport } from './report-definition.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { renderReportHtml, writeReportFile } from '../report-file.js';
import { check, type CheckCommandResult, type CheckFlags } from './check.js';
import { writeTraceFile } from '../trace-file.js';

export interface ReportCommandFlags extends Omit<CheckFlags, 'output' | 'report'> {
  /** The HTML file; `-`: the standard output. */
  output: string;
}

/** `cosi report -f PATH... -o FILE`: `cosi check`, written as one HTML page. */
export const reportCommand: CliCommand<[string[], ReportCommandFlags], CheckCommandResult> = {
  define: defineReport,
  run: report,
  render: renderReport,
};

/** Names of `check`'s formats: given to `report -o`, a mistake for a file name. */
const REPORT_LIKE_FORMATS = new Set(['text', 'json', 'junit', 'tap', 'github', 'yaml', 'html']);

export async function report(
  io: CliIo,
  paths: string[],
  flags: ReportCommandFlags,
): Promise<CommandResult<CheckCommandResult>> {
  // `-o json` out of check's habit: a format's name, not the page's file.
  if (REPORT_LIKE_FORMATS.has(flags.output)) {
    throw new CliError(
      `-o ${flags.output}: report's -o is the HTML file to write (-o report.html, or - for stdout); for a ${flags.output} report of the check, cosi check -o ${flags.output}`,
    );
  }
  // The page's path is this command's own argument: a usage error of one line, before the run.
  if (flags.output !== '-') {
    await (await import('../output-file.js')).checkOutputPath(flags.output, io.cwd);
  }
  return check(io, paths, { ...flags, output: 'text', report: flags.output });
}

/**
 * Writes the `--trace` file, then the page (to stdout for `-`), then says where on stderr, with
 * the verdict.
 */
export async function renderReport(
  io: CliIo,
  { result }: CommandResult<CheckCommandResult>,
  _paths: string[],
  flags: ReportCommandFlags,
): Promise<void> {
  if (result.setup !== undefined) io.stderr.write(`cosi: ${result.setup}\n`);
  if (flags.trace !== undefined && result.record) {
    await writeTraceFile(flags.trace, result.record, {
      cwd: io.cwd,
      stable: flags.stable === true,
      ...(result.registry ? { registry: result.registry } : {}),
    });
  }
  const data = result.report;
  if (!data) return;
  if (flags.output === '-') {
    io.stdout.write(await renderReportHtml(data));
    return;
  }
  await writeReportFile(flags.output, data, { cwd: io.cwd });
  if (!flags.quiet) {
    const findings = data.findings.filter((f) => f.failure).length;
    const first = data.failures?.[0];
    const named = first ? ` (${first.controller}${first.item ? ` on ${first.item}` : ''})` : '';
    io.stderr.write(
      `cosi: ${data.verdict}${named}, ${findings} failing ${findings === 1 ? 'finding' : 'findings'}: wrote ${flags.output}\n`,
    );
  }
}
