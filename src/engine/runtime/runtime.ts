import { setMaxListeners } from 'node:events';
import { compareStrings } from '../compare-strings.js';
import type { KubernetesKind } from '../resource/definition.js';
import { formatPointer, kindKey, type Kind, type Pointer } from '../resource/pointer.js';
import { toErrorRecord, type CodeLocation } from './error-record.js';
import { controllerSite } from './controller-sites.js';
import { reconcileOnce, type SingleReconcileOutcome } from './single-reconcile.js';
import { isResourceEvent, type State, type StateEvent } from '../state/state.js';
import type { Adapter } from './adapter.js';
import {
  backoffProblem,
  DEFAULT_BACKOFF,
  ExponentialBackoff,
  type BackoffOptions,
} from './backoff.js';
import { RealClock, type Clock, type Timer } from './clock.js';
import { ControllerAdapter } from './controller-adapter.js';
import { isQController, type AnyController, type Input, type QInputKind } from './controller.js';
import {
  DEFAULT_CONVERGE_OPTIONS,
  WriteTracker,
  type ConvergeOptions,
  type ConvergenceReason,
  type ConvergenceReport,
  type ControllerReport,
} from './convergence.js';
import { DependencyDatabase, Q_INPUT_KINDS, type DependencyGraph } from './dependency-graph.js';
import { RegistrationError, toError } from '../errors.js';
import { createLogger, type Logger } from './logger.js';
import type { ControllerMetrics, ControllerStatus } from './metrics.js';
import { OutsideWait } from './outside-wait.js';
import { QControllerAdapter } from './qcontroller-adapter.js';
import { changeRateLimitProblem } from './rate-limiter.js';
import type { RuntimeHost } from './runtime-host.js';
import { WakeupScheduler } from './scheduler.js';
import { upstreamControllers } from './upstream-controllers.js';
import { PollingWatch, type PolledController } from './steady-polling.js';
import type { QueueWorkload } from './queue-metrics.js';
import type { RuntimeOptions } from './runtime-options.js';

/** What a convergence run counts from, per controller. */
interface Baseline {
  readonly metrics: ControllerMetrics;
  readonly changes: number;
}

/** Where a span of work that no convergence run bounds began (see {@link Runtime.mark}). */
export interface RunMark {
  readonly startedAt: number;
  /** @internal */
  readonly baseline: ReadonlyMap<string, Baseline>;
}

interface Route {
  readonly input: Input;
  readonly adapter: Adapter;
}

/**
 * The controller runtime: registers controllers and queue controllers, routes state events to
 * the controllers whose inputs they touch, and runs everything, freely (`start`) or to
 * convergence (`converge`).
 *
 * @example
 * const runtime = createRuntime(createInMemoryState(), { clock: new SimulatedClock() });
 * await runtime.register(intToStr, strToSentence);
 * const report = await runtime.converge();
 */
export class Runtime {
  readonly state: State;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly #db = new DependencyDatabase();
  readonly #scheduler = new WakeupScheduler();
  readonly #adapters = new Map<string, Adapter>();
  /** The registered controllers by name, for {@link reconcileOnce}. */
  readonly #controllers = new Map<string, AnyController>();
  readonly #routes = new Map<string, Route[]>();
  readonly #watched = new Set<string>();
  /** The watches that ended with an error and are not open again yet, by kind key. */
  readonly #down = new Map<string, { readonly kind: Kind; readonly error: Error }>();
  readonly #timers = new Map<Timer, number>();
  /** Whether work in flight waits on the outside world, not on the (virtual) clock. */
  readonly #outside: OutsideWait;
  readonly #tracker = new WriteTracker();
  /**
   * Changes each controller made to the state, for the report: its `writes` metric counts state
   * calls the way COSI does (failed and no-op ones too), which is not what converging is about.
   */
  readonly #changes = new Map<string, { count: number }>();
  readonly #abort = new AbortController();
  readonly #backoff: BackoffOptions;
  readonly #host: RuntimeHost;
  #maxAttempts = Number.POSITIVE_INFINITY;
  #maxWrites = Number.POSITIVE_INFINITY;
  /** Wall ms the last run waited on stuck work before it stopped; undefined when it did not. */
  #stuckFor: number | undefined;
  /** The controllers that were still running then. */
  readonly #stuck = new Set<string>();
  #progress = 0;
  /** Per controller, the ones upstream of it, whose work its wakeups wait for. */
  #upstream = new Map<string, ReadonlySet<string>>();
  #started = false;
  #starting: Promise<void> | undefined;

  constructor(state: State, options: RuntimeOptions = {}) {
    // One listener per watched input kind, each kept for the runtime's life (as its watch is):
    // a project reads many kinds (an RGD's in every namespace it follows), which is no leak.
    setMaxListeners(0, this.#abort.signal);
    this.state = state;
    this.clock = options.clock ?? new RealClock();
    this.logger = createLogger(options.logSink, () => this.clock.now());
    this.#outside = new OutsideWait(this.clock);
    this.#backoff = options.backoff ?? {};
    const backoff = backoffProblem(this.#backoff, 'backoff');
    if (backoff !== undefined) throw new RangeError(backoff);
    const limit = options.changeRateLimit;
    const problem = limit === undefined ? undefined : changeRateLimitProblem(limit);
    if (problem !== undefined) throw new RangeError(problem);
    const writesInFlight = options.writesInFlight ?? 1;
    if (!Number.isSafeInteger(writesInFlight) || writesInFlight < 1) {
      throw new RangeError(`writesInFlight must be a positive integer, got ${writesInFlight}`);
    }
    this.#scheduler.setGate((owner, waited) => this.#waitForUpstream(owner, waited));
    this.#host = {
      changeRateLimit: limit,
      writesInFlight,
      kubernetesKind: options.kubernetesKind,
      recorder: options.recorder,
      queueMetrics: options.queueMetrics,
      locateError: options.locateError,
      reconcileStarting: options.onReconcileStart,
      state,
      clock: this.clock,
      logger: this.logger,
      db: this.#db,
      scheduler: this.#scheduler,
      setTimer: (ms, fn) => this.#setTimer(ms, fn, false),
      setWaitTimer: (ms, fn) => this.#setTimer(ms, fn, true),
      setUnawaitedTimer: (ms, fn) => this.#outside.setTimer(ms, fn),
      maxAttempts: () => this.#maxAttempts,
      writes: () => this.#tracker.total,
      maxWrites: () => this.#maxWrites,
      onWrite: (controller, pointer) => {
        this.#tracker.record(controller, pointer);
        // A counter object per controller: one lookup per write, not a lookup and a set.
        const changes = this.#changes.get(controller);
        if (changes) changes.count++;
        else this.#changes.set(controller, { count: 1 });
        this.#progress++;
      },
      onProgress: () => {
        this.#progress++;
      },
      workEnded: () => {
        this.#scheduler.release();
      },
      inputsChanged: () => {
        this.#rebuildRoutes();
        void this.#watchInputs();
      },
    };
  }

  /**
   * Registers controllers and queue controllers, before or after start. The whole batch is
   * validated first (unique names, one exclusive writer per type and no shared one beside it, no
   * duplicate inputs); if anything is wrong nothing is registered.
   *
   * @throws RegistrationError listing every problem, or saying the runtime is stopped: a stopped
   *   runtime runs nothing, so a controller given to it would never (or, started, wrongly) run.
   */
  async register(...controllers: AnyController[]): Promise<void> {
    this.#refuseWhenStopped(
      () =>
        controllers
          .map((c) => JSON.stringify((c as Partial<AnyController> | null)?.name))
          .join(', '),
      'cannot register controllers',
    );
    const problems = this.#db.validate(controllers);
    if (problems.length > 0) throw new RegistrationError(problems);
    const added: Adapter[] = [];
    for (const controller of controllers) {
      this.#db.add(controller);
      const adapter = isQController(controller)
        ? new QControllerAdapter(controller, this.#host, this.#backoff)
        : new ControllerAdapter(controller, this.#host, this.#backoff);
      this.#adapters.set(controller.name, adapter);
      this.#controllers.set(controller.name, controller);
      added.push(adapter);
    }
    this.#rebuildRoutes();
    if (this.#started) {
      await this.#watchInputs();
      for (const adapter of added) await adapter.start();
    }
  }

  /**
   * Runs one registered controller's code once, outside any convergence run: a queue
   * controller's `reconcile` of `pointer`, or one pass of a whole-world controller's `run`, over
   * the state as it is, through the same guarded facade. No other controller runs: the wakeups
   * its writes cause in a started runtime are held, as a paused run's, for the next convergence
   * run or {@link resume}. The requeue or error it answers is returned, not acted on; one still
   * running after `maxStall` wall ms is abandoned (its signal aborted) and answered as an error.
   *
   * @throws Error when no controller has that name, or the item does not fit its kind (a queue
   *   controller needs one, a whole-world one takes none).
   */
  async reconcileOnce(
    name: string,
    pointer: Pointer | undefined,
    options: { readonly maxStall?: number } = {},
  ): Promise<SingleReconcileOutcome & { readonly location?: CodeLocation }> {
    const controller = this.#controllers.get(name);
    if (controller === undefined) {
      throw new Error(
        `no controller is named ${JSON.stringify(name)} (the controllers: ${this.controllerNames().join(', ') || 'none'})`,
      );
    }
    if (this.#started) this.#scheduler.pause();
    const host = this.#host;
    const abort = new AbortController();
    const run = reconcileOnce(
      controller,
      {
        ...host,
        // Not a reconcile of a run: nothing to record it under.
        recorder: undefined,
        onWrite: (c, p) => host.onWrite(c, p),
        inputs: () => this.#db.inputs(name),
        log: host.logger.child({ controller: name }),
      },
      pointer,
      abort.signal,
    );
    const maxStall = options.maxStall ?? DEFAULT_CONVERGE_OPTIONS.maxStall;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), maxStall);
    });
    const outcome = await Promise.race([run, stalled]);
    clearTimeout(timer);
    if (outcome === undefined) {
      abort.abort();
      const on = pointer === undefined ? '' : ` (on ${formatPointer(pointer)})`;
      return {
        ...this.#definedAt(name),
        error: Object.assign(
          new Error(
            `${name} was still running${on} after ${maxStall} ms with nothing else to do (a promise that never settles?)`,
          ),
          { code: 'stalled' },
        ),
        requeued: false,
      };
    }
    const located =
      outcome.error === undefined ? undefined : toErrorRecord(outcome.error, host.locateError);
    return located?.location === undefined ? outcome : { ...outcome, location: located.location };
  }

  /**
   * Adds inputs to a registered queue controller. COSI's queue controllers keep the inputs they
   * were registered with; cosi's RGD controllers follow their instances into namespaces that
   * appear during a run (kro watches its instances in every namespace), through this. The
   * resources already there of a new primary input are queued, and its changes routed from now on.
   *
   * @throws RegistrationError when `name` is no registered queue controller, or an input is
   *   refused (a duplicate, a kind a queue controller cannot have), or the runtime is stopped.
   */
  async addInputs(name: string, inputs: readonly Input<QInputKind>[]): Promise<void> {
    this.#refuseWhenStopped(() => JSON.stringify(name), 'cannot add inputs');
    const adapter = this.#adapters.get(name);
    if (!(adapter instanceof QControllerAdapter)) {
      throw new RegistrationError([`${JSON.stringify(name)} is no registered queue controller`]);
    }
    const all = [...this.#db.inputs(name), ...inputs];
    const problems = this.#db.replaceInputs(name, all, Q_INPUT_KINDS);
    if (problems.length > 0) throw new RegistrationError(problems);
    this.#rebuildRoutes();
    await this.#watchInputs();
    await adapter.addInputs(inputs);
  }

  /**
   * What {@link register} would refuse in `controllers`, as if `pending` were registered first
   * (their own problems are not reported): empty when it would accept them. Registers nothing.
   */
  registrationProblems(
    controllers: readonly AnyController[],
    pending: readonly AnyController[] = [],
  ): string[] {
    return this.#db.validate(controllers, pending);
  }

  /** Throws a {@link RegistrationError} once {@link stop} was called: a stopped runtime stays stopped. */
  #refuseWhenStopped(what: () => string, refused: string): void {
    if (!this.#abort.signal.aborted) return;
    throw new RegistrationError(
      [
        `${what() || 'nothing'}: the runtime is stopped (stop() was called); a stopped runtime runs nothing and cannot be started again: create a new runtime`,
      ],
      refused,
    );
  }

  /** Watches every input and starts every controller. Idempotent. */
  start(): Promise<void> {
    this.#starting ??= (async () => {
      this.#started = true;
      await this.#watchInputs();
      for (const adapter of this.#adapters.values()) await adapter.start();
    })();
    return this.#starting;
  }

  /**
   * Stops every controller, cancels every timer and ends the watches. Each controller's signal
   * aborts and its work under way (a pass, the reconciles in flight, a run hook) is waited for,
   * then a queue controller's `shutdownHook` runs. Work that ignores its signal is waited for
   * `STOP_GRACE_MS` (1 s) at most: the controller's writes are refused after it, so none lands
   * once this has resolved.
   */
  async stop(): Promise<void> {
    this.#abort.abort();
    this.#scheduler.clear();
    for (const timer of this.#timers.keys()) timer.cancel();
    this.#timers.clear();
    await Promise.all([...this.#adapters.values()].map((a) => a.stop()));
  }

  /**
   * Runs until nothing is left to do (no pending wakeups, empty queues, nothing in flight, no
   * timers) or a bound is hit. On a simulated clock, time jumps to the next timer whenever
   * nothing else can run, so backoffs and requeues cost no wall time. A run that `stop()` cuts
   * short, or one started after it, ends as `aborted` (not converged).
   */
  async converge(options: ConvergeOptions = {}): Promise<ConvergenceReport> {
    const opts = { ...DEFAULT_CONVERGE_OPTIONS, ...options };
    this.#maxAttempts = opts.maxAttempts;
    this.#maxWrites = opts.maxWrites;
    const baseline = this.#baseline();
    this.#tracker.reset();
    this.#outside.reset();
    const startedAt = this.clock.now();
    let boundHit = false;
    this.#stuckFor = undefined;
    this.#stuck.clear();
    try {
      // A stopped runtime runs nothing: its run ends at once, as one a signal ended.
      if (this.#abort.signal.aborted) return this.#report('aborted', 0, 0, baseline);
      await this.start();
      this.#scheduler.resume();
      for (const adapter of this.#adapters.values()) adapter.resumeProcessing();
      let rounds = 0;
      let reason: ConvergenceReason | undefined;
      const polling = new PollingWatch();
      while (reason === undefined) {
        rounds++;
        const stallBound = Math.min(opts.maxStall, opts.maxTime - (this.clock.now() - startedAt));
        reason = await this.#settle(opts.maxWrites, opts.signal, stallBound);
        if (reason !== undefined) break;
        polling.observe(this.#tracker.total, this.#adapters.values());
        const next = this.#nextTimerAt();
        if (next === undefined) {
          if (!this.#idle()) continue;
          reason = this.#anyGivenUp() ? 'failing' : 'quiescent';
        } else if (next - startedAt > opts.maxTime) {
          reason = polling.steady(this.#tracker.total, this.#polled()) ? 'steady' : 'max-time';
        } else if (this.clock.advanceTo) {
          this.clock.advanceTo(next);
        } else {
          await realDelay(Math.max(1, Math.min(50, next - this.clock.now())));
        }
      }
      // A steady run's requeues stay due, as a bound's: they wait for the next run.
      if (reason !== 'quiescent' && reason !== 'failing') this.#scheduler.pause();
      // A run ended by its write bound keeps refusing writes until the next run sets its own:
      // a controller still looping (it caught the refusal) cannot write on after the report.
      if (reason === 'max-writes') boundHit = true;
      return this.#report(reason, rounds, this.clock.now() - startedAt, baseline);
    } finally {
      this.#maxAttempts = Number.POSITIVE_INFINITY;
      if (!boundHit) this.#maxWrites = Number.POSITIVE_INFINITY;
    }
  }

  /**
   * Starts a span of work that the caller drives by moving the clock itself (a test's `advance`)
   * rather than by a convergence run, for {@link reportSince}: its counts, and the writes that
   * name what kept changing, start here.
   */
  mark(): RunMark {
    // A run ended by its write bound keeps its count: the bound still refuses writes by it.
    if (this.#maxWrites === Number.POSITIVE_INFINITY) this.#tracker.reset();
    this.#stuckFor = undefined;
    this.#stuck.clear();
    return { startedAt: this.clock.now(), baseline: this.#baseline() };
  }

  /**
   * The span since `mark` as a convergence run's report, the controllers as they are now:
   * `quiescent` when nothing is left to do, `failing` while a controller or an item fails (in its
   * backoff or given up), `steady` when only periodic requeues are due and the span wrote
   * nothing, else `max-time`: the span ended with work still due, its writes what kept changing.
   */
  reportSince(mark: RunMark): ConvergenceReport {
    const failing = [...this.#adapters.values()].some((adapter) => {
      const { condition, failingItems } = adapter.report();
      return condition === 'backoff' || condition === 'failed' || failingItems.length > 0;
    });
    // Work that a `settle` stopped waiting on is what ended the span: the run did not settle.
    const reason: ConvergenceReason =
      this.#stuckFor !== undefined
        ? 'max-time'
        : failing
          ? 'failing'
          : this.#nextTimerAt() === undefined && this.#idle()
            ? 'quiescent'
            : this.#tracker.total === 0
              ? 'steady'
              : 'max-time';
    return this.#report(reason, 1, this.clock.now() - mark.startedAt, mark.baseline);
  }

  #baseline(): Map<string, Baseline> {
    return new Map(
      [...this.#adapters].map(([name, a]): [string, Baseline] => [
        name,
        { metrics: { ...a.metrics }, changes: this.#changes.get(name)?.count ?? 0 },
      ]),
    );
  }

  /** The controller graph as data. */
  dependencyGraph(): DependencyGraph {
    return this.#db.export();
  }

  /** The Kubernetes identity of a type, as `RuntimeOptions.kubernetesKind` tells it. */
  kubernetesKind(type: string): KubernetesKind | undefined {
    return this.#host.kubernetesKind?.(type);
  }

  /** Names of registered controllers, in registration order. */
  controllerNames(): string[] {
    return [...this.#adapters.keys()];
  }

  status(name: string): ControllerStatus | undefined {
    return this.#adapters.get(name)?.status;
  }

  metrics(name: string): Readonly<ControllerMetrics> | undefined {
    return this.#adapters.get(name)?.metrics;
  }

  /**
   * What a controller has waiting and under way now: items ready, workers busy and their time
   * so far (measured with `RuntimeOptions.queueMetrics` only: 0 without it).
   */
  workload(name: string): QueueWorkload | undefined {
    return this.#adapters.get(name)?.workload();
  }

  /**
   * Lets the controllers go on with what a convergence run that ended at a bound left waiting
   * (its requeues held, as `converge` holds them for the next run), without starting a new run:
   * what was given up stays given up, and no bound is set. For a caller that moves the clock
   * itself (a test's `advance`) and expects the timers that fall due to be worked.
   */
  resume(): void {
    if (!this.#started) return;
    this.#scheduler.resume();
    for (const adapter of this.#adapters.values()) adapter.resumeWaiting();
  }

  /**
   * Waits for the engine to have nothing runnable (without moving the clock). With `maxStall`,
   * stops waiting on work in flight that nothing moves after that many wall ms (a reconcile
   * awaiting a promise that never settles), as a convergence run does: answers `false` then,
   * and {@link reportSince} names the controllers still running as stuck.
   */
  async settle(maxStall = Number.POSITIVE_INFINITY): Promise<boolean> {
    return (await this.#settle(Number.POSITIVE_INFINITY, undefined, maxStall)) === undefined;
  }

  /**
   * Runs what is runnable until nothing is, or a bound is hit. Work in flight that nothing in the
   * run moves (no progress, no timer) waits on the outside world; after `maxStall` wall ms of that
   * the run stops as `max-time`, and the controllers still running are reported as stuck.
   */
  async #settle(
    maxWrites: number,
    signal?: AbortSignal,
    maxStall = Number.POSITIVE_INFINITY,
  ): Promise<ConvergenceReason | undefined> {
    let lastProgress = this.#progress;
    let stalled = 0;
    let stalledSince: number | undefined;
    for (;;) {
      await immediate();
      // `stop()` during the run ends it: what was still in flight is not done, and waiting for
      // work the stop gave up on (past its grace) would hold the run until the stall bound.
      if (signal?.aborted || this.#abort.signal.aborted) return 'aborted';
      if (this.#tracker.total > maxWrites) return 'max-writes';
      // Wakeups held by a paused scheduler wait for the next convergence run: not work now.
      const pending = this.#scheduler.paused ? 0 : this.#scheduler.pending;
      if (pending === 0 && this.#idle()) return undefined;
      if (this.#progress !== lastProgress || pending > 0) {
        lastProgress = this.#progress;
        stalled = 0;
        stalledSince = undefined;
        continue;
      }
      // Something is in flight and nothing moves: it waits on the clock or on the outside world.
      if (++stalled > 2) {
        const now = performance.now();
        // On a virtual clock, nothing moves until the convergence loop moves time to that timer,
        // unless the work in flight waits on the outside world, which takes no virtual time.
        if (
          this.clock.advanceTo &&
          this.#nextTimerAt() !== undefined &&
          !this.#outside.holdsTime(this.#inFlight(), now)
        ) {
          return undefined;
        }
        stalledSince ??= now;
        if (now - stalledSince > maxStall) {
          this.#stuckFor = now - stalledSince;
          for (const adapter of this.#adapters.values()) {
            if (!adapter.idle) this.#stuck.add(adapter.name);
          }
          return 'max-time';
        }
        await realDelay(1);
      }
    }
  }

  /**
   * The jobs running now, by controller: the same while the same jobs are still running, however
   * many others start and end beside them (a resync's requeues).
   */
  #inFlight(): string {
    let signature = '';
    for (const adapter of this.#adapters.values()) {
      if (adapter.working) signature += `${adapter.name}\0${adapter.runningJobs}\n`;
    }
    return signature;
  }

  #idle(): boolean {
    for (const adapter of this.#adapters.values()) if (!adapter.idle) return false;
    return true;
  }

  #polled(): PolledController[] {
    return [...this.#adapters.values()].map((adapter) => {
      const { condition, failingItems, waitingItems } = adapter.report();
      return {
        name: adapter.name,
        metrics: adapter.metrics,
        condition,
        failingItems: failingItems.length,
        waitingItems: waitingItems.length,
      };
    });
  }

  #anyGivenUp(): boolean {
    for (const adapter of this.#adapters.values()) {
      if (adapter.status.condition === 'failed') return true;
    }
    return false;
  }

  #nextTimerAt(): number | undefined {
    if (this.clock.nextTimerAt) return this.clock.nextTimerAt();
    let next: number | undefined;
    for (const at of this.#timers.values()) if (next === undefined || at < next) next = at;
    return next;
  }

  #setTimer(ms: number, fn: () => void, awaited: boolean): Timer {
    const timer: Timer = (awaited ? this.clock : this.#outside).setTimer(ms, () => {
      this.#timers.delete(timer);
      fn();
    });
    const tracked: Timer = {
      cancel: () => {
        this.#timers.delete(timer);
        timer.cancel();
      },
    };
    this.#timers.set(timer, this.clock.now() + ms);
    return tracked;
  }

  /**
   * What a wakeup of a controller waits for: the work under way upstream of it to be done. In
   * memory an upstream pass is all microtasks and is over before the wakeup's macrotask comes; on
   * etcd it is still writing, and waking now would see a part of what it writes (a reconcile for
   * every few of its writes, where in memory there is one for all of them). Only the work that is
   * owed upstream now is waited for, never work asked for later, and each upstream controller
   * once per wakeup: an upstream that never rests cannot starve it.
   */
  #waitForUpstream(
    name: string,
    waited: ReadonlySet<string>,
  ): { on: string[]; until: () => boolean } | undefined {
    const upstream = this.#upstream.get(name);
    if (upstream === undefined || upstream.size === 0) return undefined;
    const on: string[] = [];
    const owed: { adapter: Adapter; until: number }[] = [];
    // Busy: working, or with a wakeup that itself waits on something upstream (a chain).
    const busy = (adapter: Adapter): boolean =>
      adapter.working || this.#scheduler.isWaiting(adapter.name);
    for (const other of upstream) {
      if (waited.has(other)) continue;
      const adapter = this.#adapters.get(other);
      if (adapter === undefined || !busy(adapter)) continue;
      on.push(other);
      owed.push({ adapter, until: adapter.owed });
    }
    if (on.length === 0) return undefined;
    return {
      on,
      until: () => owed.every(({ adapter, until }) => !busy(adapter) || adapter.completed >= until),
    };
  }

  #rebuildRoutes(): void {
    this.#upstream = upstreamControllers(this.#db.export());
    this.#routes.clear();
    for (const adapter of this.#adapters.values()) {
      for (const input of this.#db.inputs(adapter.name)) {
        const key = kindKey(input);
        let routes = this.#routes.get(key);
        if (!routes) this.#routes.set(key, (routes = []));
        routes.push({ input, adapter });
      }
    }
  }

  /** One shared watch per input kind, never removed (as in COSI). */
  async #watchInputs(): Promise<void> {
    if (!this.#started) return;
    for (const key of this.#routes.keys()) {
      if (this.#watched.has(key)) continue;
      this.#watched.add(key);
      const first = (this.#routes.get(key) as Route[])[0] as Route;
      await this.#watchKind(key, { namespace: first.input.namespace, type: first.input.type });
    }
  }

  /** With `bootstrap`, after a watch error: every existing resource is delivered again. */
  async #watchKind(key: string, kind: Kind, bootstrap = false): Promise<void> {
    await this.state.watchKind(kind, (event) => this.#route(key, kind, event), {
      signal: this.#abort.signal,
      bootstrap,
      // Routing never resumes a watch (after an error it watches again with bootstrap).
      skipBookmarks: true,
      // Routing only notes a change (a wakeup, a queued key): at once, not a microtask later.
      inline: true,
    });
  }

  #route(key: string, kind: Kind, event: StateEvent): void {
    if (event.type === 'errored') {
      this.#rewatch(key, kind, event.error);
      return;
    }
    if (!isResourceEvent(event)) return;
    const routes = this.#routes.get(key);
    if (!routes) return;
    const id = event.resource.metadata.id;
    for (const { input, adapter } of routes) {
      if (input.id === undefined || input.id === id) adapter.deliver(input, event);
    }
  }

  /**
   * A watch ended with an error (it fell behind the state's history and lost events, etcd's
   * watch failed, a value under the kind is not a resource). COSI's runtime stops on it, leaving
   * the restart to the process around it; here the runtime does that restart itself, for the one
   * kind: it watches again with bootstrap, which delivers every existing resource of the kind as
   * `created`, so each controller with an input of that kind is triggered again (a whole-world
   * controller reconciles, a queue controller requeues its primaries and maps its mapped
   * inputs), as a restarted controller starts from a fresh list. A watch that cannot be opened
   * again (etcd away, a corrupt value that fails the list) is tried again with backoff until it
   * opens or the runtime stops, never given up: meanwhile it is one of {@link watchesDown}. Each
   * new reason is logged once.
   */
  #rewatch(key: string, kind: Kind, error: Error): void {
    if (this.#abort.signal.aborted) return;
    this.logger.warn('watch error: watching again from the current state', {
      namespace: kind.namespace,
      type: kind.type,
      error: error.message,
    });
    this.#down.set(key, { kind, error });
    this.#progress++;
    const backoff = new ExponentialBackoff({
      ...this.#backoff,
      max: Math.min(this.#backoff.max ?? DEFAULT_BACKOFF.max, WATCH_RETRY_MAX),
    });
    let logged: string | undefined;
    const attempt = (): void => {
      if (this.#abort.signal.aborted) return;
      this.#watchKind(key, kind, true).then(
        () => {
          this.#down.delete(key);
          if (logged !== undefined) {
            this.logger.warn('watching again: the watch is back', {
              namespace: kind.namespace,
              type: kind.type,
            });
          }
        },
        (rewatchError: unknown) => {
          if (this.#abort.signal.aborted) return;
          const cause = toError(rewatchError);
          this.#down.set(key, { kind, error: cause });
          if (cause.message !== logged) {
            logged = cause.message;
            this.logger.error('watching again after a watch error failed: retrying', {
              namespace: kind.namespace,
              type: kind.type,
              error: cause.message,
            });
          }
          this.#setTimer(backoff.next(), attempt, false);
        },
      );
    };
    attempt();
  }

  /**
   * The input kinds whose watch is down now (it ended with an error and could not be opened
   * again yet), each with the last error: their controllers hear of no change meanwhile.
   */
  watchesDown(): { readonly kind: Kind; readonly error: Error }[] {
    return [...this.#down.values()];
  }

  /** Where the project's code made the controller, when a factory recorded it and it is placed. */
  #definedAt(name: string): { location?: CodeLocation } {
    const controller = this.#controllers.get(name);
    const site = controller === undefined ? undefined : controllerSite(controller);
    if (site === undefined) return {};
    const { location } = toErrorRecord(site, this.#host.locateError);
    return location === undefined ? {} : { location };
  }

  #report(
    reason: ConvergenceReason,
    rounds: number,
    elapsed: number,
    baseline: ReadonlyMap<string, Baseline>,
  ): ConvergenceReport {
    const controllers: ControllerReport[] = [...this.#adapters.values()]
      .map((adapter): ControllerReport => {
        const m = adapter.metrics;
        const base = baseline.get(adapter.name)?.metrics;
        const changesBefore = baseline.get(adapter.name)?.changes ?? 0;
        const { kind, condition, lastError, failingItems, waitingItems, retryAt, inFlight } =
          adapter.report();
        const stuck =
          this.#stuckFor !== undefined && this.#stuck.has(adapter.name)
            ? {
                waited: Math.round(this.#stuckFor),
                ...(inFlight ? { pointer: inFlight } : {}),
                ...this.#definedAt(adapter.name),
              }
            : undefined;
        const runningAtEnd =
          reason === 'max-time' && stuck === undefined && adapter.working
            ? inFlight
              ? { pointer: inFlight }
              : {}
            : undefined;
        return {
          name: adapter.name,
          kind,
          condition,
          reconciles: m.reconciles - (base?.reconciles ?? 0),
          writes: (this.#changes.get(adapter.name)?.count ?? 0) - changesBefore,
          errors: m.crashes - (base?.crashes ?? 0),
          restarts: m.restarts - (base?.restarts ?? 0),
          ...(lastError === undefined ? {} : { lastError }),
          failingItems,
          waitingItems,
          ...(retryAt === undefined ? {} : { retryIn: retryAt - this.clock.now() }),
          ...(stuck === undefined ? {} : { stuck }),
          ...(runningAtEnd === undefined ? {} : { runningAtEnd }),
          metrics: { ...m },
        };
      })
      .sort((a, b) => compareStrings(a.name, b.name));
    const converged = reason === 'quiescent' || reason === 'steady';
    return {
      converged,
      reason,
      rounds,
      elapsed,
      reconciles: controllers.reduce((n, c) => n + c.reconciles, 0),
      writes: this.#tracker.total,
      errors: controllers.reduce((n, c) => n + c.errors, 0),
      controllers,
      oscillating: converged || reason === 'failing' ? [] : this.#tracker.hottest(),
    };
  }
}

/** A new runtime over `state`. */
export function createRuntime(state: State, options?: RuntimeOptions): Runtime {
  return new Runtime(state, options);
}

/** The longest wait between two tries to open a watch again, ms: a watch down is a blind spot. */
const WATCH_RETRY_MAX = 10_000;

const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const realDelay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
