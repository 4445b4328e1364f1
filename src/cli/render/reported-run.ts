import type { ProjectRun, RunOutcome } from '../../app/run-project.js';
import type { ConvergenceReport } from '../../engine/runtime/convergence.js';
import type { ExitCode } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { createColors, renderFindings, renderReport, type RunCounts } from './report.js';

/** A run that converged (or tried to): what a command takes its data from. */
export type ConvergedOutcome = RunOutcome & { readonly report: ConvergenceReport };

/**
 * A run, the exit code its findings and convergence earn, and, when the manifests loaded and the
 * controllers ran, the command's data and what the report's summary line counts.
 */
export interface ReportedRun<Data> {
  readonly run: ProjectRun;
  readonly exitCode: ExitCode;
  readonly converged?: {
    readonly outcome: ConvergedOutcome;
    readonly data: Data;
    readonly counts: RunCounts;
  };
  /** A usage error met when taking the data from the converged state: said after the findings. */
  readonly failure?: string;
}

/**
 * Prints a run as `apply`, `get`, `graph --resources` and `explain` show it: the findings (to
 * stderr), the command's data (to stdout, through `printData`), then, unless quiet and converged,
 * the convergence report to stderr: the verdict comes last, after the data, so it does not
 * scroll away.
 */
export function renderReportedRun<Data>(
  io: CliIo,
  reported: ReportedRun<Data>,
  flags: { readonly color?: boolean; readonly quiet?: boolean },
  printData: (data: Data) => void,
): void {
  const colors = createColors(useColor(io, flags.color));
  io.stderr.write(
    renderFindings(reported.run.manifests.findings, colors, { quiet: flags.quiet === true }),
  );
  if (reported.failure !== undefined) io.stderr.write(`cosi: ${reported.failure}\n`);
  if (!reported.converged) return;
  const { outcome, data, counts } = reported.converged;
  printData(data);
  io.stderr.write(renderFindings(outcome.findings, colors, { quiet: flags.quiet === true }));
  if (!flags.quiet || !outcome.report.converged) {
    io.stderr.write(renderReport(outcome.report, counts, colors));
  }
}
