/**
 * The `rgd-waiting` warnings of `cosi run`: once its controllers have settled, each kro RGD
 * instance that stays in progress (see `waiting-instances.ts`) is logged as a warning, as
 * `cosi apply` reports it. Said once while it waits the same way: a later convergence logs
 * only what is new.
 */

import type { LogRecord } from '../engine/runtime/logger.js';
import { takeSnapshot } from '../engine/state/state-snapshot.js';
import { resourceGraphOf } from '../loaders/kro/resource-graph-definition.js';
import type { Project } from './project.js';
import { waitingInstanceFindings } from './waiting-instances.js';

/**
 * A function to call each time the runtime of `project` settles: it logs through `onLog` the
 * instances newly waiting (a `warn` record with code `rgd-waiting`). The manifests are not kept
 * by a served project: a warning names the instance, not its file.
 */
export function waitingInstancesLogger(
  project: Pick<Project, 'state' | 'registry'>,
  onLog: (record: LogRecord) => void,
): () => Promise<void> {
  let said = new Set<string>();
  return async () => {
    // Only a project with RGDs has instances to wait: no snapshot of the state for the others.
    if (!project.registry.all().some((d) => resourceGraphOf(d) !== undefined)) return;
    const snapshot = await takeSnapshot(project.state);
    const findings = waitingInstanceFindings(snapshot, project.registry, new Map());
    const now = new Set(findings.map((f) => f.message));
    for (const finding of findings) {
      if (said.has(finding.message)) continue;
      onLog({
        level: 'warn',
        message: finding.message,
        time: Date.now(),
        fields: { code: finding.code },
      });
    }
    said = now;
  };
}
