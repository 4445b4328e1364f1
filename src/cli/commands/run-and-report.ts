import { displayPath } from '../../app/display-path.js';
import { runProject, type ProjectRun, type RunOutcome } from '../../app/run-project.js';
import type { ConvergenceReport } from '../../engine/runtime/convergence.js';
import { hasErrors } from '../../loaders/finding.js';
import { EXIT, exitCodeOf, type ExitCode } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { toRunOptions, type CommonFlags } from '../options.js';
import { createColors, renderFindings, renderReport } from '../render/report.js';

/** A run and the exit code its findings and convergence earn. */
export interface ReportedRun {
  readonly run: ProjectRun;
  readonly exitCode: ExitCode;
}

/** A run that converged (or tried to): what a command prints its data from. */
export type ConvergedOutcome = RunOutcome & { readonly report: ConvergenceReport };

/**
 * Prints a command's data (stdout) from the converged run; may answer an exit code of its own
 * (a resource asked for that is not there).
 */
export type PrintData = (outcome: ConvergedOutcome, run: ProjectRun) => ExitCode | undefined;

/**
 * What `apply`, `get` and `graph --resources` share: run the project, print the findings (to
 * stderr), the command's data (to stdout, through `printData`), then, unless quiet and
 * converged, the convergence report to stderr: the verdict comes last, after the data, so it
 * does not scroll away.
 */
export async function runAndReport(
  flags: CommonFlags,
  io: CliIo,
  paths: readonly string[],
  printData: PrintData,
  /** `record`: record every reconcile (`cosi explain`, `--trace`). */
  { record = false }: { readonly record?: boolean } = {},
): Promise<ReportedRun> {
  const colors = createColors(useColor(io, flags.color));
  const started = performance.now();
  // Only a recorded run (explain, --trace) places pointers inside the manifests after the load,
  // or reads the manifests after the run; the others print from the state alone.
  const run = await runProject({
    ...(await toRunOptions(flags, io, { paths, record })),
    positions: record,
    releaseManifests: !record,
  });
  io.stderr.write(renderFindings(run.manifests.findings, colors));
  const report = run.outcome?.report;
  if (hasErrors(run.manifests.findings) || !run.outcome || !report) {
    return { run, exitCode: EXIT.findings };
  }
  const { project, snapshot } = run.outcome;
  const dataExitCode = printData({ ...run.outcome, report }, run);
  io.stderr.write(renderFindings(run.outcome.findings, colors));
  if (!flags.quiet || !report.converged) {
    io.stderr.write(
      renderReport(
        report,
        {
          resources: snapshot.resources.length,
          controllers: project.runtime.controllerNames().length,
          config: run.config ? displayPath(io.cwd, run.config.file) : undefined,
          lastChanges: run.outcome.lastChanges,
          explainArgs: [...(flags.file ?? []), ...paths].map((p) => `-f ${p}`).join(' '),
          ...(flags.stable ? {} : { wallTime: performance.now() - started }),
        },
        colors,
      ),
    );
  }
  // Findings about what the controllers wrote fail a run that otherwise converged.
  const runExitCode =
    exitCodeOf(report) === EXIT.ok && hasErrors(run.outcome.findings)
      ? EXIT.findings
      : exitCodeOf(report);
  return { run, exitCode: dataExitCode ?? runExitCode };
}
