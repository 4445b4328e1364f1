import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import type { ApplyResult } from '../engine/state/resource-applier.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import type { ReadResult } from '../loaders/manifest-reader.js';
import { convergeProject, type ConvergeBounds } from './converge-project.js';
import {
  openProject,
  type OpenProjectOptions,
  type Project,
  type ProjectManifests,
} from './project.js';

/** What a session is opened with: how the project starts, and the bounds of each convergence. */
export interface ProjectSessionOptions extends OpenProjectOptions, ConvergeBounds {}

/** An edit of the manifests: a new load, and (after a partial read) the files that changed. */
export type ManifestEdit = Pick<ReadResult, 'resources' | 'changes'>;

/**
 * One project from its start to its end: the one path of `apply`, `get`, `graph`, `check`,
 * `explain` (a session that converges once and closes) and `watch` (one that applies an edit and
 * converges again on every round). Opening stores the definitions and the manifests and registers
 * the config's controllers; nothing runs until {@link converge}.
 *
 * @example
 * const session = await ProjectSession.open(config, manifests, { cwd });
 * try {
 *   const report = await session.converge();
 * } finally {
 *   await session.close();
 * }
 */
export class ProjectSession {
  readonly #options: ProjectSessionOptions;
  #closing: Promise<void> | undefined;

  private constructor(
    /** The started project: its state, runtime, registry, clock and applier. */
    readonly project: Project,
    options: ProjectSessionOptions,
  ) {
    this.#options = options;
  }

  /**
   * Opens a session: see {@link openProject}.
   *
   * @throws ConfigError naming the config file when its controllers cannot be registered or its
   *   `setup` fails; nothing is left running then.
   */
  static async open(
    config: LoadedConfig | undefined,
    manifests: ProjectManifests,
    options: ProjectSessionOptions,
  ): Promise<ProjectSession> {
    return new ProjectSession(await openProject(config, manifests, options), options);
  }

  /** The config the session's controllers come from (`undefined`: none was found). */
  get config(): LoadedConfig | undefined {
    return this.project.config;
  }

  /**
   * Writes the difference between the manifests the state holds and `edit`: only the files that
   * changed when `onlyChanged` and the edit says which (a watch round's partial read), else the
   * whole load. Manifests it drops are torn down, and destroyed by the next {@link converge}.
   * With `wallTime`, the simulated clock first moves on to the wall clock's time, so that the
   * edit is stamped with the time it was made, not with the previous round's. `retained`: keys of
   * the manifests' resources left out of a whole load because they cannot be applied (too large
   * for the state): left as the state holds them, not torn down (see `ResourceApplier.apply`).
   */
  applyEdit(
    edit: ManifestEdit,
    {
      onlyChanged = false,
      wallTime = false,
      retained,
    }: {
      onlyChanged?: boolean;
      wallTime?: boolean;
      retained?: ReadonlySet<string>;
    } = {},
  ): Promise<ApplyResult> {
    if (wallTime) this.#toWallTime();
    const { applier } = this.project;
    return onlyChanged && edit.changes
      ? applier.applyGroups(edit.changes)
      : applier.apply(edit.resources, retained === undefined ? {} : { retained });
  }

  /**
   * Runs the controllers until nothing is left to do or a bound is hit; with `wallTime`, the
   * simulated clock first moves on to the wall clock's time (timers that came due meanwhile fire).
   */
  converge({ wallTime = false } = {}): Promise<ConvergenceReport> {
    if (wallTime) this.#toWallTime();
    const monitor = this.#options.monitor;
    if (monitor === undefined) return convergeProject(this.project, this.#options);
    // The controllers' code runs only while converging: what follows is cosi's own.
    return convergeProject(this.project, this.#options).finally(() => {
      monitor.leave();
    });
  }

  /** Moves the simulated clock on to the wall clock's time (never back). */
  #toWallTime(): void {
    const { clock } = this.project;
    const now = Date.now();
    if (now > clock.now()) clock.advanceTo?.(now);
  }

  /** Stops the runtime (and every controller). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.project.runtime.stop();
    return this.#closing;
  }
}
