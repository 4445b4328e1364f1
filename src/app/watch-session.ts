import * as path from 'node:path';
import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import type { ApplyResult } from '../engine/state/resource-applier.js';
import { SnapshotTracker, type TrackedSnapshot } from '../engine/state/snapshot-tracker.js';
import { pointerKey } from '../engine/resource/pointer.js';
import { hasErrors, type Finding } from '../loaders/finding.js';
import { ConfigError, type LoadedConfig } from '../loaders/load-config.js';
import type { ReadResult } from '../loaders/manifest-reader.js';
import { RecordedPriorState } from '../loaders/cel/prior-state.js';
import { declaredControllersKey } from './declared-controllers.js';
import { displayPath } from './display-path.js';
import {
  MANIFEST_FILE,
  SCRIPT_FILE,
  type FileEvent,
  type FileWatcher,
  type WatchFiles,
} from './file-events.js';
import { lastChangedFields } from './last-change.js';
import type { Project } from './project.js';
import { allRunFindings, runFindings, type RunFindingCode } from './run-findings.js';
import { stateFindings } from './state-findings.js';
import { MissingManifestsError, withConfigManifests } from './config-manifests.js';
import { loadProjectConfig } from './project-config.js';
import { ProjectSession } from './project-session.js';
import { openProjectReader, type ProjectReader } from './read-project-manifests.js';
import type { RunProjectOptions } from './run-project.js';

/** Options of {@link startWatchSession}. */
export interface WatchSessionOptions extends Omit<RunProjectOptions, 'converge'> {
  /** The file watcher (chokidar in the CLI, synthetic events in tests). */
  readonly watch: WatchFiles;
  /** Called after every round, the first included. */
  readonly onRound: (round: WatchRound) => void;
  /**
   * Called as a round starts, before anything of it runs: a supervisor that stops a round stuck
   * in the project's code shows it as this round.
   */
  readonly onRoundStart?: (start: RoundStart) => void;
  /** Called, while paused, as changes come: every file changed since the pause (display paths). */
  readonly onPending?: (changed: readonly string[]) => void;
  /** Quiet time after the last file event before a round starts, ms. Default 100. */
  readonly debounceMs?: number;
}

/** One reload-apply-converge round, as data for the view. */
export interface WatchRound {
  /** 1 for the first round. */
  readonly number: number;
  /**
   * `start`: the first load; `manifests`: manifest files changed; `restart`: the config (or a
   * script next to it) or the set of types changed, so the runtime started again on a new state;
   * `rerun`: asked for (`r` in the view), from a fresh state as a restart.
   */
  readonly trigger: 'start' | 'manifests' | 'restart' | 'rerun';
  /** Display paths of the files whose change triggered the round. */
  readonly changed: readonly string[];
  /** Those of {@link changed} that were deleted (their last event a removal); absent: none. */
  readonly removed?: readonly string[];
  /**
   * The manifest files loaded; when the config did not load, those of the last round that did
   * (the state they made keeps running), none before the first.
   */
  readonly files: readonly string[];
  /** Findings of this round's load. */
  readonly findings: readonly Finding[];
  /**
   * Whether this round's load reached the state. When not (invalid manifests, a config that does
   * not load), the last good state keeps running and `project` is it.
   */
  readonly applied: boolean;
  /** Why the round could not run: a config that does not load or register, an internal error. */
  readonly error?: string;
  /** What the round wrote to the state (absent on a (re)start, which writes everything). */
  readonly changes?: ApplyResult;
  /** This round's convergence run; absent when nothing was applied. */
  readonly report?: ConvergenceReport;
  /**
   * What this round's convergence run found of the controllers, as `cosi check` reports it (see
   * `runFindings`): a controller that kept failing, an item given up on, a run that did not
   * converge, each at the manifest of the resource involved, else at the config.
   */
  readonly runFindings?: readonly Finding<RunFindingCode>[];
  /**
   * What the state this round's run left shows, as `cosi check` reports it (see
   * `stateFindings`): an RGD instance that stays in progress, an observed status laid on nothing,
   * each at its manifest.
   */
  readonly stateFindings?: readonly Finding[];
  /**
   * The running project (the last good one), absent until a load succeeds; it is replaced only
   * when the config or the set of types changes.
   */
  readonly project?: Project;
  /**
   * The project's state at the end of the round, with `project`; with what changed since the
   * snapshot of the project's previous round (absent after a (re)start).
   */
  readonly snapshot?: TrackedSnapshot;
  /** The running project's config file, as a display path; absent when it has none. */
  readonly config?: string;
  /** How many files this round read from disk and parsed. */
  readonly cost: { readonly read: number; readonly parsed: number };
  /** Wall-clock milliseconds of the whole round. */
  readonly wallTime: number;
}

/** A round that starts: its number, and what triggered it (see {@link WatchRound}). */
export type RoundStart = Pick<WatchRound, 'number' | 'trigger' | 'changed' | 'removed'>;

/** A running `cosi watch`. */
export interface WatchSession {
  /** Resolves when there is no pending change and no round running. */
  idle(): Promise<void>;
  /** Stops the watcher, waits for a running round, stops the runtime. Idempotent. */
  close(): Promise<void>;
  /** Resolves once {@link close} has finished. */
  readonly closed: Promise<void>;
  /**
   * Stops starting rounds: file changes are still collected, and {@link resume} runs them as one
   * round. Idempotent.
   */
  pause(): void;
  /** Runs what changed while paused, and goes on reloading. */
  resume(): void;
  /** Whether reloading is paused. */
  readonly paused: boolean;
  /**
   * Re-runs everything from a fresh state (the config loaded again, every manifest read and
   * checked as a create, as at start: nothing ratchets against the rounds before). Runs even
   * while paused.
   */
  rerun(): void;
}

const DEFAULT_DEBOUNCE_MS = 100;

interface Pending {
  readonly paths: Set<string>;
  /** Whether every manifest event was a `change` (no file added or removed): no walk needed. */
  contentOnly: boolean;
  restart: boolean;
  /** The config and scripts whose change asked for the restart. */
  readonly scripts: Set<string>;
  /** The last event of each path: a file removed is said so, not `changed`. */
  readonly kinds: Map<string, FileEvent['kind']>;
}

const nothingPending = (): Pending => ({
  paths: new Set(),
  contentOnly: true,
  restart: false,
  scripts: new Set(),
  kinds: new Map(),
});

/** The running project's session, and the definitions it was opened with. */
interface Running {
  readonly session: ProjectSession;
  readonly snapshot: TrackedSnapshot;
  /** Snapshots the project's state at the cost of what each round changed. */
  readonly tracker: SnapshotTracker;
  /**
   * The manifests' definitions and declared controllers (RGDs, transforms), serialised: a
   * different set needs a new project.
   */
  readonly definitionsKey: string;
}

/**
 * Starts `cosi watch`: loads and converges like `cosi apply`, then keeps the runtime and, on every
 * batch of file changes (debounced), re-reads only the changed manifests, applies only the
 * difference to the running state, converges and reports the round. Each round converges on a
 * simulated clock, so backoffs and requeues cost no wall time and a round's result is the same
 * whenever it runs; between rounds the clock is moved to wall time (unless `stable`).
 *
 * A config that does not load at start throws; after an edit, it is reported and the last good
 * project keeps running.
 *
 * @throws ConfigError when the config cannot be found, loaded or registered at start.
 */
export async function startWatchSession(options: WatchSessionOptions): Promise<WatchSession> {
  const session = new Session(options);
  await session.start();
  return session;
}

class Session implements WatchSession {
  readonly #options: WatchSessionOptions;
  readonly #debounceMs: number;
  #reader: ProjectReader | undefined;
  #config: LoadedConfig | undefined;
  /**
   * The options under the loaded config: its manifest paths when the command gave none, its
   * ignore patterns, definition files and Kubernetes version (see `withConfigManifests`).
   */
  #resolved: WatchSessionOptions;
  /** What the file watcher watches (absolute), as a key: a config edit may change it. */
  #watchedKey = '';
  #running: Running | undefined;
  #watcher: FileWatcher | undefined;
  #pending: Pending = nothingPending();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The rounds under way, while there are. */
  #draining: Promise<void> | undefined;
  #rounds = 0;
  /** The files of the last round emitted: what a round whose config did not load still runs. */
  #files: readonly string[] = [];
  #closing: Promise<void> | undefined;
  #resolveClosed!: () => void;
  readonly closed = new Promise<void>((resolve) => {
    this.#resolveClosed = resolve;
  });
  #idleWaiters: (() => void)[] = [];
  #paused = false;
  /** A rerun asked for: the next round restarts even while paused. */
  #rerun = false;
  /**
   * Whether the running project's applier holds the reader's last load, so that the next load's
   * `changes` (the files that differ from it) are all there is to apply.
   */
  #applierInSync = false;
  /**
   * The resources of the rounds so far, for CEL transition rules: an edit is checked as an
   * update of what the last rounds loaded, so an immutable field's edit is flagged as it is saved.
   * A rerun forgets them: from a fresh state every resource is a create, as at start.
   */
  #prior = new RecordedPriorState();

  constructor(options: WatchSessionOptions) {
    this.#options = options;
    this.#resolved = options;
    this.#debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  }

  async start(): Promise<void> {
    this.#options.onRoundStart?.({ number: 1, trigger: 'start', changed: [] });
    await this.#loadConfig();
    await this.#round('start', { changed: [] });
    await this.#watchRoots();
  }

  /**
   * Watches the manifest paths, the config and the modules it imports; again, on the new paths,
   * when a config edit changed them (the round after the edit read everything anew).
   */
  async #watchRoots(): Promise<void> {
    // Closing meanwhile: the watcher it closes is the last one.
    if (this.#closing) return;
    const roots = this.#resolved.files.map((f) => path.resolve(this.#options.cwd, f));
    if (this.#config !== undefined) {
      const manifests = [...roots];
      roots.push(this.#config.file);
      // And the project's own modules it imports (a types.ts beside it, controllers/), those
      // below no manifest path (watched there already).
      for (const source of this.#config.sources ?? []) {
        if (source === this.#config.file) continue;
        if (!manifests.some((root) => isWithin(root, source))) roots.push(source);
      }
    }
    const key = JSON.stringify(roots);
    if (this.#watcher !== undefined && key === this.#watchedKey) return;
    const previous = this.#watcher;
    this.#watchedKey = key;
    this.#watcher = this.#options.watch(roots, (event) => this.#onEvent(event));
    await previous?.close();
  }

  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#timer = undefined;
      await this.#watcher?.close();
      await this.#draining;
      this.#running?.tracker.stop();
      await this.#running?.session.close();
      this.#notifyIdle();
      this.#resolveClosed();
    })();
    return this.#closing;
  }

  get paused(): boolean {
    return this.#paused;
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    if (this.#pending.paths.size > 0 || this.#pending.restart) this.#drain();
  }

  rerun(): void {
    if (this.#closing) return;
    this.#pending.restart = true;
    this.#rerun = true;
    this.#drain();
  }

  #onEvent(event: FileEvent): void {
    if (this.#closing) return;
    if (event.path === this.#config?.file || SCRIPT_FILE.test(event.path)) {
      this.#pending.restart = true;
      this.#pending.scripts.add(event.path);
    } else if (
      MANIFEST_FILE.test(event.path) ||
      event.kind === 'addDir' ||
      event.kind === 'unlinkDir'
    ) {
      this.#pending.paths.add(event.path);
      if (event.kind !== 'change') this.#pending.contentOnly = false;
    } else {
      return;
    }
    this.#pending.kinds.set(event.path, event.kind);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#paused) this.#drain();
      else this.#options.onPending?.(this.#pendingFiles());
    }, this.#debounceMs);
  }

  /** The files of the pending changes, as a round's `changed` names them. */
  #pendingFiles(): string[] {
    const { paths, scripts } = this.#pending;
    // A directory renamed or removed with its files: its files name the change, not it as well.
    const holding = new Set<string>();
    for (const file of paths) {
      for (let dir = path.dirname(file); !holding.has(dir); dir = path.dirname(dir)) {
        holding.add(dir);
        if (path.dirname(dir) === dir) break;
      }
    }
    return [...paths, ...scripts]
      .filter((p) => !holding.has(p))
      .map((p) => displayPath(this.#options.cwd, p))
      .sort();
  }

  /** Of {@link #pendingFiles}, those whose last event removed them. */
  #pendingRemoved(): string[] | undefined {
    const removed = [...this.#pending.kinds]
      .filter(([, kind]) => kind === 'unlink' || kind === 'unlinkDir')
      .map(([p]) => displayPath(this.#options.cwd, p))
      .sort();
    return removed.length === 0 ? undefined : removed;
  }

  /** Runs rounds until no change is pending; changes that arrive meanwhile join the next round. */
  #drain(): void {
    if (this.#draining) return;
    this.#draining = (async () => {
      while (
        !this.#closing &&
        (!this.#paused || this.#rerun) &&
        (this.#pending.paths.size > 0 || this.#pending.restart)
      ) {
        const rerun = this.#rerun;
        this.#rerun = false;
        const { paths, restart, contentOnly } = this.#pending;
        const changed = this.#pendingFiles();
        const removed = this.#pendingRemoved();
        const files = { changed, ...(removed ? { removed } : {}) };
        this.#pending = nothingPending();
        const trigger = rerun ? 'rerun' : restart ? 'restart' : 'manifests';
        const started = performance.now();
        this.#options.onRoundStart?.({ number: this.#rounds + 1, trigger, ...files });
        try {
          // The reader is opened again on the fresh prior state by the config's load.
          if (rerun) this.#prior = new RecordedPriorState();
          if (restart) await this.#loadConfig();
          await this.#round(trigger, files, restart ? undefined : paths, contentOnly);
          if (restart) await this.#watchRoots();
        } catch (error) {
          // A config that stops loading or registering (or naming manifests) is bad input:
          // shown, and the last good project keeps running. Anything else is a bug, shown the same way.
          const message =
            error instanceof ConfigError
              ? describeConfigError(error)
              : error instanceof MissingManifestsError
                ? error.message
                : `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
          this.#emit(
            { trigger, ...files, files: this.#files, findings: [], cost: { read: 0, parsed: 0 } },
            { applied: false, error: message },
            started,
          );
        }
      }
    })().finally(() => {
      this.#draining = undefined;
      this.#notifyIdle();
    });
  }

  async #loadConfig(): Promise<void> {
    const config = await loadProjectConfig(this.#options);
    this.#options.onConfig?.(config);
    // A config edit that drops its manifest paths is bad input, said as a config error is.
    const resolved = withConfigManifests(this.#options, config);
    this.#config = config;
    this.#resolved = resolved;
    // Read with the config (`--definitions` paths are not watched); the definitions of the config
    // are part of every load: a new config needs a new reader.
    this.#reader = await openProjectReader(resolved, config, this.#prior);
  }

  /**
   * One round: read (everything, or only `paths`), apply the difference (or open a new project on
   * a fresh state, when the config or the set of types changed), converge, report.
   */
  async #round(
    trigger: WatchRound['trigger'],
    changed: Pick<WatchRound, 'changed' | 'removed'>,
    paths?: Iterable<string>,
    contentOnly = false,
  ): Promise<void> {
    const started = performance.now();
    const inSync = this.#applierInSync;
    this.#applierInSync = false;
    const load = await (this.#reader as ProjectReader).read(paths, { contentOnly });
    this.#prior.replaceChanged(load.changes, () => load.resources, hasErrors(load.findings));
    const loaded = {
      trigger,
      ...changed,
      files: load.files,
      findings: load.findings,
      cost: { read: load.read.length, parsed: load.parsed.length },
    };
    if (hasErrors(load.findings)) {
      this.#emit(loaded, { applied: false }, started);
      return;
    }
    // An edit of an RGD or a transform document changes its controller: the project restarts.
    const definitionsKey = `${JSON.stringify(load.definitions)}\n${declaredControllersKey(load.registry)}`;
    let changes: ApplyResult | undefined;
    let session = this.#running?.session;
    if (
      paths === undefined ||
      this.#running?.definitionsKey !== definitionsKey ||
      session?.config !== this.#config
    ) {
      session = await this.#restart(load);
      if (trigger === 'manifests') loaded.trigger = 'restart';
    } else if (session) {
      // Stamped with this round's wall time, as the round's own writes are.
      changes = await session.applyEdit(load, {
        onlyChanged: inSync,
        wallTime: !this.#options.stable,
      });
      // Where this round's manifests are, before their controllers run: a supervisor places a
      // fault of this round at the manifest of the resource involved (see `manifest-places.ts`).
      const monitor = this.#options.monitor;
      if (load.changes) monitor?.manifestsLoaded?.([...load.changes.values()].flat(), true);
      else monitor?.manifestsLoaded?.(load.resources);
    }
    this.#applierInSync = true;
    if (!session) throw new Error('a watch round has no project');
    // Timestamps read as wall time; timers that came due meanwhile fire in this round.
    const report = await session.converge({ wallTime: !this.#options.stable });
    const tracker =
      this.#running?.session === session
        ? this.#running.tracker
        : new SnapshotTracker(session.project.state);
    this.#running = { session, definitionsKey, tracker, snapshot: await tracker.take() };
    const found = await this.#runFindings(session, report);
    const { applier, registry } = session.project;
    const shown = stateFindings(this.#running.snapshot, registry, {
      get: (key) => applier.appliedAt(key)?.source,
    });
    this.#emit(
      loaded,
      {
        applied: true,
        report,
        runFindings: found,
        stateFindings: shown,
        ...(changes ? { changes } : {}),
      },
      started,
    );
  }

  /** What the run found of the controllers, placed as `cosi check` places it. */
  async #runFindings(
    session: ProjectSession,
    report: ConvergenceReport,
  ): Promise<Finding<RunFindingCode>[]> {
    const { applier, state } = session.project;
    const oscillating = report.oscillating.map((o) => o.pointer);
    return allRunFindings(
      runFindings(report, {
        placeOf: (pointer) => applier.appliedAt(pointerKey(pointer))?.source,
        config: session.config ? displayPath(this.#options.cwd, session.config.file) : '',
        ...(oscillating.length > 0
          ? { lastChanges: await lastChangedFields(state, oscillating) }
          : {}),
      }),
    );
  }

  /** Opens a session on a fresh state and closes the one it replaces. */
  async #restart(load: ReadResult): Promise<ProjectSession> {
    // A round may add an observed status that the RGD controllers must read: they always may.
    const session = await ProjectSession.open(this.#config, load, {
      ...this.#resolved,
      observeStatus: true,
    });
    this.#running?.tracker.stop();
    await this.#running?.session.close();
    this.#running = undefined;
    return session;
  }

  #emit(
    loaded: Pick<WatchRound, 'trigger' | 'changed' | 'removed' | 'files' | 'findings' | 'cost'>,
    outcome: Pick<
      WatchRound,
      'applied' | 'error' | 'report' | 'runFindings' | 'stateFindings' | 'changes'
    >,
    started: number,
  ): void {
    const running = this.#running;
    this.#files = loaded.files;
    this.#options.onRound({
      number: ++this.#rounds,
      ...loaded,
      ...outcome,
      ...(running ? { project: running.session.project, snapshot: running.snapshot } : {}),
      ...(running?.session.config
        ? { config: displayPath(this.#options.cwd, running.session.config.file) }
        : {}),
      wallTime: performance.now() - started,
    });
  }

  #isIdle(): boolean {
    return this.#closing !== undefined || (this.#timer === undefined && !this.#draining);
  }

  #notifyIdle(): void {
    if (!this.#isIdle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * A config error for the view: `file:line:col: problem` (the loader found the place in the
 * user's code, when there is one), the first line of each problem.
 */
function describeConfigError(error: ConfigError): string {
  return error
    .placedProblems()
    .map(({ message, at }) => {
      const where = at === undefined ? error.file : `${at.file ?? error.file}:${at.line}:${at.col}`;
      return `${where}: ${(message.split('\n', 1)[0] ?? '').trim()}`;
    })
    .join('\n');
}

/** Whether `file` is `root` or below it. */
function isWithin(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
