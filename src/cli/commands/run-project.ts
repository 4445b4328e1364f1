import type { ChalkInstance } from 'chalk';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { useColor } from '../io.js';
import { toProjectOptions, type CommonFlags } from '../options.js';
import { loadProject, type ProjectRun } from '../project.js';
import { formatLog } from '../render/logs.js';
import { createColors, renderFindings, renderReport } from '../render/report.js';
import { hasErrors } from '../../loaders/finding.js';
import { RESOURCE_DEFINITION_TYPE } from '../../engine/resource/definition.js';

/** A loaded project and what the shared part of a command decided. */
export interface ProjectOutcome {
  readonly run: ProjectRun;
  /** The exit code from findings and convergence alone. */
  readonly exitCode: ExitCode;
  /** Whether the controllers ran, so there is a state to print. */
  readonly ran: boolean;
  readonly colors: ChalkInstance;
}

/**
 * The part `apply`, `get` and `check` share: load and run the project, print the findings and
 * (unless quiet) the convergence report to stderr, and pick the exit code.
 */
export async function runProjectCommand(flags: CommonFlags, io: CliIo): Promise<ProjectOutcome> {
  const colors = createColors(useColor(io, flags.color));
  const started = performance.now();
  const run = await loadProject(
    {
      ...toProjectOptions(flags),
      ...(flags.verbose ? { onLog: (record) => io.stderr.write(formatLog(record)) } : {}),
    },
    io.cwd,
  );
  io.stderr.write(renderFindings(run.findings, colors));
  if (hasErrors(run.findings) || !run.report) {
    return { run, exitCode: EXIT.findings, ran: false, colors };
  }
  const report = run.report;
  if (!flags.quiet || !report.converged) {
    io.stderr.write(
      renderReport(
        report,
        {
          resources: run.state
            .kinds()
            .filter((k) => k.type !== RESOURCE_DEFINITION_TYPE)
            .reduce((n, k) => n + run.state.listSync(k).length, 0),
          controllers: run.runtime.controllerNames().length,
          ...(flags.stable ? {} : { wallTime: performance.now() - started }),
        },
        colors,
      ),
    );
  }
  const exitCode =
    report.reason === 'quiescent'
      ? EXIT.ok
      : report.reason === 'failing'
        ? EXIT.findings
        : EXIT.notConverged;
  return { run, exitCode, ran: true, colors };
}
