import { runProject, type ProjectRun, type RunProjectOptions } from '../run-project.js';
import type { CheckResult } from './check-result.js';
import { runChecks, type CheckOptions } from './run-checks.js';

/** A checked project: the run, and every case found in it. */
export interface CheckedProject {
  readonly run: ProjectRun;
  readonly result: CheckResult;
}

/**
 * `cosi check`'s work: runs the project (read, open, converge) and turns the run into check
 * cases: manifests, controllers, convergence, and with `expect` the goldens (compared, or with
 * `update` written); with `typecheck`, the config's type errors first. Prints nothing.
 *
 * @throws ConfigError when the config does not load; FileWriteError when a golden cannot be written.
 */
export async function checkProject(
  runOptions: RunProjectOptions,
  checkOptions: CheckOptions,
): Promise<CheckedProject> {
  const run = await runProject(runOptions);
  const result = await runChecks(run, checkOptions);
  if (checkOptions.typecheck !== true || run.config === undefined) return { run, result };
  // The type checker (the project's own) is loaded only when asked for.
  const { typecheckConfig } = await import('./typecheck-config.js');
  const types = await typecheckConfig(run.config.file, checkOptions.cwd);
  return { run, result: { ...result, cases: [types, ...result.cases] } };
}
