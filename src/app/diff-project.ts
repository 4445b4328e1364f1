import { takeSnapshot } from '../engine/state/state-snapshot.js';
import type { State } from '../engine/state/state.js';
import { hasErrors, type Finding } from '../loaders/finding.js';
import { ForeignStateError, foreignTypes } from './foreign-state.js';
import { loadProjectConfig } from './project-config.js';
import { readProjectManifests, type ReadProjectOptions } from './read-project-manifests.js';
import { diffAgainstState, type ResourceChange } from './state-diff.js';

/** What diffing a project against a state takes: where its manifests are, and the state. */
export interface DiffProjectOptions extends ReadProjectOptions {
  /** The running system's state; only read. */
  readonly state: State;
  /** How the state is named in a refusal (`etcd://127.0.0.1:2379/demo`). */
  readonly stateName: string;
}

/** A diff: the changes an apply would make, and the manifests' findings (warnings only). */
export interface ProjectDiff {
  readonly changes: readonly ResourceChange[];
  readonly findings: readonly Finding[];
}

/**
 * What applying a project's manifests to `state` would change, as `cosi run` applies them,
 * without writing anything: the config and the manifests are read as every command reads them,
 * the state is read once (every kind listed), and the two compared. Manifests with errors are
 * not compared: their findings are returned.
 *
 * @throws ConfigError when the config cannot be found or loaded; ForeignStateError when the
 *   state holds another project's resources (as `cosi run` refuses it); the state's own errors
 *   (etcd unreachable) as they come.
 */
export async function diffProject(
  options: DiffProjectOptions,
): Promise<ProjectDiff | { readonly refused: readonly Finding[] }> {
  const config = await loadProjectConfig(options);
  const read = await readProjectManifests(options, config);
  if (hasErrors(read.findings)) return { refused: read.findings };
  const foreign = await foreignTypes(options.state, read.registry);
  if (foreign.length > 0) throw new ForeignStateError(options.stateName, foreign);
  const { resources } = await takeSnapshot(options.state);
  return {
    changes: diffAgainstState(
      read.resources.map((r) => r.resource),
      resources,
    ),
    findings: read.findings,
  };
}
