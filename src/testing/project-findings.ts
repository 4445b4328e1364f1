import { runChecks } from '../app/check/run-checks.js';
import type { Project } from '../app/project.js';
import type { ProjectRun } from '../app/run-project.js';
import { outcomeFindings } from '../app/run-project.js';
import { lastChangedFields } from '../app/last-change.js';
import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import { takeSnapshot } from '../engine/state/state-snapshot.js';
import type { Finding } from '../loaders/finding.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import type { ManifestResource } from '../loaders/manifest-resource.js';
import type { ReadResult } from '../loaders/manifest-reader.js';

/** What a test project knows of itself, to be checked as `cosi check` checks a run. */
export interface FindingsSource {
  readonly config: LoadedConfig | undefined;
  readonly cwd: string;
  readonly manifests: readonly ManifestResource[];
  /** The warnings of the loads so far (a load with errors was refused). */
  readonly loadFindings: readonly Finding[];
  readonly project: Project;
  readonly report: ConvergenceReport | undefined;
}

/**
 * The findings `cosi check` would report of the project as it is now, with the same codes and
 * messages (`runChecks` makes them): the manifests' warnings, output collisions, types written
 * without a definition, RGD instances that stay in progress, observed statuses laid on nothing,
 * controllers that failed or recovered, a convergence that did not settle.
 */
export async function projectFindings(source: FindingsSource): Promise<Finding<string>[]> {
  const { project, report } = source;
  const snapshot = await takeSnapshot(project.state);
  const sources = new Map(source.manifests.map((r) => [r.key, r.source]));
  // Only what runChecks reads of a load: the test project has no files of its own to list.
  const manifests = {
    findings: [...source.loadFindings],
    resources: [...source.manifests],
    files: [],
    documents: [],
  } as unknown as ReadResult;
  const run: ProjectRun = {
    config: source.config,
    manifests,
    outcome: {
      project,
      snapshot,
      findings: outcomeFindings({
        project,
        snapshot,
        sources,
        config: source.config,
        cwd: source.cwd,
        ...(report ? { report } : {}),
      }),
      lastChanges: await lastChangedFields(
        project.state,
        report?.oscillating.map((o) => o.pointer) ?? [],
      ),
      ...(report ? { report } : {}),
    },
  };
  const result = await runChecks(run, { strict: false, update: false, cwd: source.cwd });
  return result.cases.flatMap((c) => c.findings);
}
