import type { Command } from 'commander';

/** `--report FILE`, as `check` takes it. */
export interface ReportFlags {
  report?: string;
}

/** Adds `--report <file>`. */
export function addReportOption(command: Command): Command {
  return command.option(
    '--report <file>',
    'also write a self-contained HTML report (verdict, findings, graph, resources, timeline) to <file>',
  );
}
