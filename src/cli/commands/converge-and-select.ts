import { displayPath } from '../../app/display-path.js';
import { runProject, stopsRun, type ProjectRun } from '../../app/run-project.js';
import { hasErrors } from '../../loaders/finding.js';
import { ResourceQueryError } from '../../app/resource-query.js';
import { CliError, EXIT, exitCodeOf, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { toRunOptions, type CommonFlags } from '../options.js';
import type { RunCounts } from '../render/report.js';
import { formatUnrenderedCounts } from '../../loaders/unrendered-counts.js';
import type { ConvergedOutcome, ReportedRun } from '../render/reported-run.js';

/** Takes a command's data from the converged run. */
export type SelectData<Data> = (outcome: ConvergedOutcome, run: ProjectRun) => Data;

/**
 * What `apply`, `get`, `graph --resources` and `explain` share: run the project to convergence
 * and select the command's data from the converged state, with the exit code the run earns.
 * Prints nothing: `renderReportedRun` prints the findings, the data, then the convergence report.
 */
export async function convergeAndSelect<Data>(
  flags: CommonFlags,
  io: CliIo,
  paths: readonly string[],
  selectData: SelectData<Data>,
  /**
   * `record`: record every reconcile (`cosi explain`, `--trace`). `openInvalid`: when the
   * manifests have errors, still open the project on those that loaded (never run): the run's
   * `outcome` then has no `report`, for a command that shows what loaded (`graph --resources`).
   */
  {
    record = false,
    openInvalid = false,
  }: { readonly record?: boolean; readonly openInvalid?: boolean } = {},
): Promise<ReportedRun<Data>> {
  const started = performance.now();
  // Only a recorded run (explain, --trace) places pointers inside the manifests after the load,
  // or reads the manifests after the run; the others print from the state alone.
  const run = await runProject({
    ...(await toRunOptions(flags, io, { paths, record })),
    positions: record,
    releaseManifests: !record,
    openInvalid,
  });
  const report = run.outcome?.report;
  if (stopsRun(run.manifests.findings) || !run.outcome || !report) {
    return { run, exitCode: EXIT.findings };
  }
  const { project, snapshot } = run.outcome;
  const outcome = { ...run.outcome, report };
  let data: Data;
  try {
    data = selectData(outcome, run);
  } catch (error) {
    // A usage error found in the converged state (a type it does not know) is said after the
    // findings, as the one line the top-level catch would write.
    const failure = usageFailure(error);
    if (failure === undefined) throw error;
    return { run, exitCode: failure.exitCode, failure: failure.message };
  }
  const counts: RunCounts = {
    resources: snapshot.resources.length,
    controllers: project.runtime.controllerNames().length,
    config: run.config ? displayPath(io.cwd, run.config.file) : undefined,
    setAside: formatUnrenderedCounts(run.manifests.unrendered),
    lastChanges: run.outcome.lastChanges,
    explainArgs: [...(flags.file ?? []), ...paths].map((p) => `-f ${p}`).join(' '),
    ...(flags.stable ? {} : { wallTime: performance.now() - started }),
  };
  // Findings about what the controllers wrote, or an RGD that did not load (the others ran),
  // fail a run that otherwise converged.
  const exitCode =
    exitCodeOf(report) === EXIT.ok &&
    (hasErrors(run.outcome.findings) || hasErrors(run.manifests.findings))
      ? EXIT.findings
      : exitCodeOf(report);
  return { run, exitCode, converged: { outcome, data, counts } };
}

function usageFailure(error: unknown): { message: string; exitCode: ExitCode } | undefined {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof ResourceQueryError) return { message: error.message, exitCode: EXIT.usage };
  return undefined;
}
