import * as path from 'node:path';
import { resourceDefinitionDefinition } from '../../engine/resource/definition.js';
import { DefinitionRegistry } from '../../engine/resource/definition-registry.js';
import { SIMULATED_EPOCH, SimulatedClock } from '../../engine/runtime/clock.js';
import type { ConvergenceReport } from '../../engine/runtime/convergence.js';
import type { Pointer } from '../../engine/resource/pointer.js';
import type { Resource } from '../../engine/resource/resource.js';
import { createRuntime, isDestroyReady, type Runtime } from '../../engine/runtime/runtime.js';
import { isNotFound } from '../../engine/state/errors.js';
import { applyResources, type ApplyResult } from '../../engine/state/apply-resources.js';
import { createInMemoryState, type InMemoryState } from '../../engine/state/in-memory-state.js';
import { hasErrors, type Finding } from '../../loaders/finding.js';
import type { LoadedConfig } from '../../loaders/load-config.js';
import type { ManifestResource } from '../../loaders/load-manifests.js';
import {
  ManifestReader,
  type ReadResult as IncrementalReadResult,
} from '../../loaders/manifest-reader.js';
import { CliError } from '../exit-codes.js';
import {
  defaultMaxWrites,
  displayPath,
  loadProjectConfig,
  registerControllers,
  storeDefinitions,
  type ProjectOptions,
} from '../project.js';
import type { FileEvent, FileWatcher, WatchFiles } from './file-watcher.js';

/** Options of {@link startWatchSession}. */
export interface WatchSessionOptions extends Pick<
  ProjectOptions,
  'files' | 'config' | 'stable' | 'timeout' | 'maxWrites' | 'onLog'
> {
  readonly cwd: string;
  /** The file watcher (chokidar in the CLI, synthetic events in tests). */
  readonly watch: WatchFiles;
  /** Called after every round, the first included. */
  readonly onRound: (round: WatchRound) => void;
  /** Quiet time after the last file event before a round starts, ms. Default 100. */
  readonly debounceMs?: number;
}

/** What a round runs on: one state and runtime, replaced only when the config or types change. */
export interface WatchProject {
  readonly state: InMemoryState;
  readonly registry: DefinitionRegistry;
  readonly runtime: Runtime;
  readonly config: LoadedConfig | undefined;
}

/** One reload-apply-converge round, as data for the view. */
export interface WatchRound {
  /** 1 for the first round. */
  readonly number: number;
  /**
   * `start`: the first load; `manifests`: manifest files changed; `restart`: the config (or a
   * script next to it) or the set of types changed, so the runtime started again on a new state.
   */
  readonly trigger: 'start' | 'manifests' | 'restart';
  /** Display paths of the files whose change triggered the round. */
  readonly changed: readonly string[];
  /** The manifest files loaded (empty when the config did not load). */
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
  /** The running project (the last good one), absent until a load succeeds. */
  readonly project?: WatchProject;
  /** How many files this round read from disk and parsed. */
  readonly cost: { readonly read: number; readonly parsed: number };
  /** Wall-clock milliseconds of the whole round. */
  readonly wallTime: number;
}

/** A running `cosi watch`. */
export interface WatchSession {
  /** Resolves when there is no pending change and no round running. */
  idle(): Promise<void>;
  /** Stops the watcher, waits for a running round, stops the runtime. Idempotent. */
  close(): Promise<void>;
  /** Resolves once {@link close} has finished. */
  readonly closed: Promise<void>;
}

const DEFAULT_DEBOUNCE_MS = 100;
/** Files whose change means the config (or what it imports) changed: restart. */
const SCRIPT_FILE = /\.(?:[cm]?ts|[cm]?js)$/;
const YAML_FILE = /\.ya?ml$/;

interface Pending {
  readonly paths: Set<string>;
  restart: boolean;
}

interface Generation extends WatchProject {
  readonly clock: SimulatedClock;
  /** The manifest resources last applied, to diff the next load against. */
  previous: readonly ManifestResource[];
  /**
   * Manifest resources removed from the files but held by finalizers when torn down: the session
   * destroys them, as their owner, once the controllers have let go.
   */
  readonly releasing: Map<string, Pointer>;
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
 * @throws CliError (usage) when the config cannot be found, loaded or registered at start.
 */
export async function startWatchSession(options: WatchSessionOptions): Promise<WatchSession> {
  const session = new Session(options);
  await session.start();
  return session;
}

class Session implements WatchSession {
  readonly #options: WatchSessionOptions;
  readonly #debounceMs: number;
  #reader: ManifestReader | undefined;
  #config: LoadedConfig | undefined;
  #configFile: string | undefined;
  #generation: Generation | undefined;
  #watcher: FileWatcher | undefined;
  #pending: Pending = { paths: new Set(), restart: false };
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #rounds = 0;
  #closing: Promise<void> | undefined;
  #resolveClosed!: () => void;
  readonly closed = new Promise<void>((resolve) => {
    this.#resolveClosed = resolve;
  });
  #idleWaiters: (() => void)[] = [];

  constructor(options: WatchSessionOptions) {
    this.#options = options;
    this.#debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  }

  async start(): Promise<void> {
    await this.#loadConfig();
    await this.#round('start', [], true);
    const roots = this.#options.files.map((f) => path.resolve(this.#options.cwd, f));
    if (this.#configFile !== undefined) roots.push(this.#configFile);
    this.#watcher = this.#options.watch(roots, (event) => this.#onEvent(event));
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
      await this.#running;
      await this.#generation?.runtime.stop();
      this.#notifyIdle();
      this.#resolveClosed();
    })();
    return this.#closing;
  }

  #onEvent(event: FileEvent): void {
    if (this.#closing) return;
    if (event.path === this.#configFile || SCRIPT_FILE.test(event.path)) {
      this.#pending.restart = true;
    } else if (
      YAML_FILE.test(event.path) ||
      event.kind === 'addDir' ||
      event.kind === 'unlinkDir'
    ) {
      this.#pending.paths.add(event.path);
    } else {
      return;
    }
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#drain();
    }, this.#debounceMs);
  }

  /** Runs rounds until no change is pending; changes that arrive meanwhile join the next round. */
  #drain(): void {
    if (this.#running) return;
    this.#running = (async () => {
      while (!this.#closing && (this.#pending.paths.size > 0 || this.#pending.restart)) {
        const { paths, restart } = this.#pending;
        this.#pending = { paths: new Set(), restart: false };
        const changed = [...paths].map((p) => displayPath(this.#options.cwd, p)).sort();
        try {
          if (restart) await this.#restart(changed);
          else await this.#round('manifests', changed, false, paths);
        } catch (error) {
          // A bug, not bad input: shown, and the session keeps watching for the next change.
          this.#emit({
            trigger: restart ? 'restart' : 'manifests',
            changed,
            files: [],
            findings: [],
            applied: false,
            error: `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
            ...(this.#generation ? { project: this.#generation } : {}),
            cost: { read: 0, parsed: 0 },
            wallTime: 0,
          });
        }
      }
    })().finally(() => {
      this.#running = undefined;
      this.#notifyIdle();
    });
  }

  async #restart(changed: readonly string[]): Promise<void> {
    const started = performance.now();
    try {
      await this.#loadConfig();
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      this.#emit({
        trigger: 'restart',
        changed,
        files: [],
        findings: [],
        applied: false,
        error: error.message,
        ...(this.#generation ? { project: this.#generation } : {}),
        cost: { read: 0, parsed: 0 },
        wallTime: performance.now() - started,
      });
      return;
    }
    await this.#round('restart', changed, true);
  }

  async #loadConfig(): Promise<void> {
    const { file, config } = await loadProjectConfig(this.#options, this.#options.cwd);
    this.#configFile = file;
    this.#config = config;
    // The definitions of the config are part of every load: a new config needs a new cache.
    this.#reader = new ManifestReader(this.#options.files, {
      cwd: this.#options.cwd,
      definitions: config?.definitions ?? [],
      ...(file ? { definitionsSource: displayPath(this.#options.cwd, file) } : {}),
    });
  }

  async #round(
    trigger: WatchRound['trigger'],
    changed: readonly string[],
    fresh: boolean,
    paths?: Iterable<string>,
  ): Promise<void> {
    const started = performance.now();
    const reader = this.#reader as ManifestReader;
    const load = await reader.read(fresh ? undefined : paths);
    const cost = { read: load.read.length, parsed: load.parsed.length };
    const base: Pick<WatchRound, 'changed' | 'files' | 'findings' | 'cost'> & {
      trigger: WatchRound['trigger'];
    } = { trigger, changed, files: load.files, findings: load.findings, cost };
    if (hasErrors(load.findings)) {
      this.#emit({
        ...base,
        applied: false,
        ...(this.#generation ? { project: this.#generation } : {}),
        wallTime: performance.now() - started,
      });
      return;
    }
    const definitionsKey = JSON.stringify(load.definitions);
    let generation = this.#generation;
    let changes: ApplyResult | undefined;
    if (fresh || generation === undefined || generation.definitionsKey !== definitionsKey) {
      let next: Generation;
      try {
        next = await this.#boot(load, definitionsKey);
      } catch (error) {
        // A config that loads but does not register: at start a usage error, later a message.
        if (trigger === 'start' || !(error instanceof CliError)) throw error;
        this.#emit({
          ...base,
          applied: false,
          error: error.message,
          ...(generation ? { project: generation } : {}),
          wallTime: performance.now() - started,
        });
        return;
      }
      if (generation !== undefined) {
        await generation.runtime.stop();
        if (trigger === 'manifests') base.trigger = 'restart';
      }
      this.#generation = generation = next;
    } else {
      const before = new Map(generation.previous.map((r) => [r.key, r.resource.metadata]));
      changes = await applyResources(generation.state, load.resources, generation.previous);
      for (const key of changes.tornDown) {
        const pointer = before.get(key);
        if (pointer) generation.releasing.set(key, pointer);
      }
      for (const r of load.resources) generation.releasing.delete(r.key);
      generation.previous = load.resources;
    }
    if (!this.#options.stable) {
      // Timestamps read as wall time; timers that came due meanwhile fire in this round.
      const now = Date.now();
      if (now > generation.clock.now()) generation.clock.advanceTo(now);
    }
    const report = await this.#converge(generation, load.resources.length);
    this.#emit({
      ...base,
      applied: true,
      ...(changes ? { changes } : {}),
      report,
      project: generation,
      wallTime: performance.now() - started,
    });
  }

  /**
   * Converges, destroys the removed manifest resources the controllers have released, and
   * converges again while that destroys something; one report for the whole.
   */
  async #converge(generation: Generation, resources: number): Promise<ConvergenceReport> {
    const options = {
      ...(this.#options.timeout !== undefined ? { maxTime: this.#options.timeout } : {}),
      maxWrites: this.#options.maxWrites ?? defaultMaxWrites(resources),
    };
    let report = await generation.runtime.converge(options);
    while (report.converged && (await this.#destroyReleased(generation))) {
      const next = await generation.runtime.converge(options);
      report = {
        ...next,
        rounds: report.rounds + next.rounds,
        elapsed: report.elapsed + next.elapsed,
        reconciles: report.reconciles + next.reconciles,
        writes: report.writes + next.writes,
        errors: report.errors + next.errors,
      };
    }
    return report;
  }

  /** Destroys the released resources that no finalizer holds any more; whether there were any. */
  async #destroyReleased(generation: Generation): Promise<boolean> {
    let destroyed = false;
    for (const [key, pointer] of generation.releasing) {
      let current: Resource | undefined;
      try {
        current = await generation.state.get(pointer);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      if (current === undefined) {
        generation.releasing.delete(key);
      } else if (isDestroyReady(current)) {
        await generation.state.destroy(pointer);
        generation.releasing.delete(key);
        destroyed = true;
      }
    }
    return destroyed;
  }

  async #boot(load: IncrementalReadResult, definitionsKey: string): Promise<Generation> {
    const config = this.#config;
    const registry = new DefinitionRegistry([
      resourceDefinitionDefinition,
      ...(config?.definitions ?? []),
      ...load.definitions,
    ]);
    const clock = new SimulatedClock(this.#options.stable ? SIMULATED_EPOCH : Date.now());
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, {
      clock,
      ...(this.#options.onLog ? { logSink: this.#options.onLog } : {}),
    });
    try {
      await storeDefinitions(state, registry.all());
      await applyResources(state, load.resources);
      await registerControllers(runtime, config, this.#options.cwd);
    } catch (error) {
      await runtime.stop();
      throw error;
    }
    return {
      state,
      registry,
      runtime,
      config,
      clock,
      previous: load.resources,
      releasing: new Map(),
      definitionsKey,
    };
  }

  #emit(round: Omit<WatchRound, 'number'>): void {
    this.#options.onRound({ number: ++this.#rounds, ...round });
  }

  #isIdle(): boolean {
    return this.#closing !== undefined || (this.#timer === undefined && !this.#running);
  }

  #notifyIdle(): void {
    if (!this.#isIdle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
