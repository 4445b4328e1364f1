import { compareStrings } from '../compare-strings.js';
import { formatPointer, pointerKey, toPointer, type Pointer } from '../resource/pointer.js';
import { isDestroyReady, type Resource } from '../resource/resource.js';
import type { ReconcileOutcome, RunRecorder } from '../record/run-record.js';
import type { ResourceEvent } from '../state/state.js';
import type { Adapter, AdapterReport } from './adapter.js';
import { ExponentialBackoff, type BackoffOptions } from './backoff.js';
import {
  toReducedMetadata,
  type Input,
  type MapEventContext,
  type QController,
  type QInputKind,
  type ReducedMetadata,
} from './controller.js';
import { ControllerFacade } from './controller-facade.js';
import { isRequeue, isSkip, isTerminal, toError } from '../errors.js';
import { errorLogFields, toErrorRecord } from './error-record.js';
import type { Logger } from './logger.js';
import { createMetrics, type ControllerCondition, type ControllerStatus } from './metrics.js';
import type { RuntimeHost } from './runtime-host.js';
import { WorkQueue } from './work-queue.js';
import { QueueTiming, type QueueWorkload } from './queue-metrics.js';
import { isFinalizerOnlyChange, type OwnFinalizerWrite } from './finalizer-only-change.js';
import { FailingItems } from './failing-items.js';
import { OwnFinalizerWrites } from './own-finalizer-writes.js';
import { isMapping, MapJob, RouteJob, type Job } from './queue-jobs.js';
import { describeReturned, notPointers, primaryPointers } from './mapping-returns.js';
import { runSoon } from '../run-soon.js';
import { settledWithin } from './stopping.js';
import { QueueKeys } from './queue-keys.js';
import { RunHook } from './run-hook.js';
import { QueueTriggers } from './queue-triggers.js';
import { failedJobOutcome } from './job-outcome.js';

const INITIAL_LIST: MapEventContext = { isInInitialList: true };
const LIVE: MapEventContext = { isInInitialList: false };

/**
 * Runs one queue controller: a deduplicating work queue, `concurrency` workers, per-key
 * exponential backoff and `RequeueError` handling, plus the optional run hook.
 */
export class QControllerAdapter implements Adapter {
  readonly metrics = createMetrics();
  readonly #facade: ControllerFacade;
  /** Keyed by {@link #reconcileKey} and {@link #mapKey}. */
  readonly #queue: WorkQueue<Job>;
  /** With `RuntimeOptions.queueMetrics`: the queue's timing. */
  readonly #timing: QueueTiming | undefined;
  readonly #failing: FailingItems;
  readonly #keys: QueueKeys;
  readonly #concurrency: number;
  readonly #log: Logger;
  readonly #backoffOptions: BackoffOptions;
  readonly #runHook: RunHook;
  /** Workers running: each takes one key after another until none is ready. */
  #inFlight = 0;
  /** Jobs started so far, and those of them running now. */
  #jobsStarted = 0;
  readonly #running = new Set<number>();
  /** Jobs finished, for {@link owed}. */
  #completed = 0;
  /** The job a worker took last: what a report names when the run stopped waiting on it. */
  #lastTaken: Job | undefined;
  /** The writes of this controller's own `addFinalizer` on primary inputs, until their events. */
  readonly #ownWrites = new OwnFinalizerWrites();
  /** `skipFinalizerOnlyRequeue`, read once. */
  readonly #skipFinalizerOnly: boolean;
  #condition: ControllerCondition = 'idle';
  #lastError: Error | undefined;
  /** Why the last list of the inputs failed, until one is read (see {@link #listInputs}). */
  #listError: Error | undefined;
  #abort = new AbortController();
  /**
   * `#abort.signal.aborted`, read on every event and every job: a plain field, where the
   * signal's getter checks its receiver each time.
   */
  #stopped = false;
  /** Set by {@link stop} while workers run: told when the last one ends. */
  #workersEnded: (() => void) | undefined;
  #stopping: Promise<void> | undefined;
  #started = false;
  #pumpScheduled = false;
  readonly #triggers = new QueueTriggers();

  constructor(
    private readonly controller: QController,
    private readonly host: RuntimeHost,
    backoff: BackoffOptions,
  ) {
    this.#backoffOptions = { ...backoff, ...controller.settings.backoff };
    this.#failing = new FailingItems(this.#backoffOptions, () => host.maxAttempts());
    this.#log = host.logger.child({ controller: controller.name });
    // Registration refused anything but a positive whole number or 'writesInFlight'.
    const concurrency = controller.settings.concurrency ?? 1;
    this.#concurrency = concurrency === 'writesInFlight' ? host.writesInFlight : concurrency;
    this.#skipFinalizerOnly = controller.settings.skipFinalizerOnlyRequeue === true;
    this.#keys = new QueueKeys(controller.settings.inputs);
    this.#facade = new ControllerFacade(
      controller.name,
      controller.settings.outputs,
      () => host.db.inputs(controller.name),
      this.metrics,
      host,
      this.#abort.signal,
      controller.settings.skipOwnFinalizerRequeue === true
        ? (pointer, write) => this.#noteOwnFinalizerWrite(pointer, write)
        : undefined,
    );
    this.#runHook = new RunHook(
      controller.settings.runHook,
      host,
      backoff,
      this.#facade,
      this.#abort.signal,
      this.#log,
      {
        crashed: (error) => {
          this.metrics.crashes++;
          this.#lastError = error;
        },
        restarted: () => this.metrics.restarts++,
        gaveUp: () => (this.#condition = 'failed'),
      },
    );
    // Delayed keys start new work: no reconcile waits for their timers.
    const delays = {
      now: () => host.clock.now(),
      setTimer: (ms: number, fn: () => void) => host.setUnawaitedTimer(ms, fn),
    };
    const sink = host.queueMetrics;
    this.#timing = sink && new QueueTiming(controller.name, sink);
    this.#queue = new WorkQueue<Job>(delays, () => this.#schedulePump(), this.#timing);
  }

  get name(): string {
    return this.controller.name;
  }

  get status(): ControllerStatus {
    const condition = this.#currentCondition();
    return this.#lastError ? { condition, lastError: this.#lastError } : { condition };
  }

  #currentCondition(): ControllerCondition {
    if (this.#condition === 'stopped' || this.#condition === 'failed' || !this.#started)
      return this.#condition;
    if (this.#failing.anyGivenUp()) return 'failed';
    if (this.#failing.size > 0 || this.#listError !== undefined) return 'backoff';
    return this.#inFlight > 0 || this.#queue.readyCount > 0 ? 'running' : 'idle';
  }

  get working(): boolean {
    return this.#inFlight > 0;
  }

  get runningJobs(): string {
    return [...this.#running].join(' ');
  }

  get completed(): number {
    return this.#completed;
  }

  get owed(): number {
    return this.#completed + this.#inFlight + this.#queue.readyCount;
  }

  /** Nothing ready and nothing in flight (delayed keys wait on the clock). */
  get idle(): boolean {
    return this.#inFlight === 0 && (this.#queue.readyCount === 0 || this.host.scheduler.paused);
  }

  /** With the items that failed and have not succeeded since, sorted by pointer. */
  report(): AdapterReport {
    const lastError = this.#lastError;
    const failing = this.#failing.sorted();
    const condition = this.#currentCondition();
    const retryAt =
      condition === 'backoff'
        ? this.#failing.nextRetryAt((key) => this.#queue.releaseAt(key))
        : undefined;
    return {
      kind: 'qcontroller',
      condition,
      ...(retryAt !== undefined ? { retryAt } : {}),
      ...(lastError ? { lastError: toErrorRecord(lastError, this.host.locateError) } : {}),
      failingItems: failing.map((f) => ({
        pointer: f.pointer,
        attempts: f.attempts,
        error: toErrorRecord(f.lastError, this.host.locateError),
        ...(isMapping(f.job) ? { mapping: true } : {}),
      })),
      waitingItems: this.#queue
        .delayedItems()
        .flatMap((job) => (isMapping(job) ? [] : [this.#keys.pointerOf(job)]))
        .sort((a, b) => compareStrings(pointerKey(a), pointerKey(b))),
      ...(this.#inFlight > 0 ? this.#inFlightItem() : {}),
    };
  }

  workload(): QueueWorkload {
    const underway = this.#timing?.underway();
    return {
      depth: this.#queue.readyCount,
      activeWorkers: underway?.active ?? this.#inFlight,
      maxWorkers: this.#concurrency,
      unfinishedSeconds: underway?.unfinishedSeconds ?? 0,
      longestSeconds: underway?.longestSeconds ?? 0,
    };
  }

  #inFlightItem(): { inFlight?: Pointer } {
    const job = this.#lastTaken;
    return job === undefined ? {} : { inFlight: this.#keys.itemOf(job) };
  }

  /** Its inputs as registered, and as {@link addInputs} added to them. */
  #inputs(): readonly Input<QInputKind>[] {
    // Registration admits only queue input kinds for a queue controller.
    return this.host.db.inputs(this.controller.name) as readonly Input<QInputKind>[];
  }

  /**
   * Inputs added after registration (`Runtime.addInputs`, already in the runtime's table): a
   * primary one is routed here from now on, and once started, what each holds is queued.
   */
  async addInputs(inputs: readonly Input<QInputKind>[]): Promise<void> {
    for (const input of inputs) {
      if (input.kind === 'primary') this.#keys.addPrimary(input);
    }
    if (this.#started && !this.#stopped) await this.#listInputs(undefined, inputs, true);
  }

  /** Lists every primary input and queues it, then starts the run hook. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#condition = 'running';
    await this.#listInputs();
    this.controller.attachQueue?.((pointer) => this.#enqueue(pointer), this.#abort.signal);
    this.#runHook.start();
  }

  /**
   * Queues every item of the primary inputs (hands every input's to `mapEvent`, with one). A
   * list that fails (the state unreachable, a stored value that is no resource) fails this
   * controller, not its start: it is logged with the error, the controller is in backoff, and the
   * lists are read again with backoff until they are read or the controller stops. Their items
   * are queued then (the queue drops what is already in it).
   */
  async #listInputs(
    backoff?: ExponentialBackoff,
    of: readonly Input<QInputKind>[] = this.#inputs(),
    /**
     * Map what the mapped inputs hold too: inputs added once started, whose resources were
     * there before (at start, COSI lists the primary inputs only).
     */
    mapped = false,
  ): Promise<void> {
    const mapEvent = this.controller.mapEvent !== undefined;
    const inputs = of.filter((i) => mapEvent || mapped || i.kind === 'primary');
    const listed: [Input<QInputKind>, Resource[]][] = [];
    try {
      for (const input of inputs) {
        const kind = { namespace: input.namespace, type: input.type };
        listed.push([input, await this.host.state.list(kind)]);
      }
    } catch (error) {
      if (this.#stopped) return;
      const cause = toError(error);
      this.metrics.crashes++;
      this.#lastError = cause;
      const retry = backoff ?? new ExponentialBackoff(this.#backoffOptions);
      // Once per reason: a retry that fails the same way says nothing new.
      if (this.#listError?.message !== cause.message) {
        this.#log.error('listing the inputs failed: retrying', {
          error: cause.message,
          code: toErrorRecord(cause).code,
        });
      }
      this.#listError = cause;
      this.host.setTimer(retry.next(), () => void this.#listInputs(retry, of, mapped));
      return;
    }
    if (this.#stopped) return;
    this.#listError = undefined;
    for (const [input, items] of listed) {
      for (const resource of items) {
        if (input.id !== undefined && input.id !== resource.metadata.id) continue;
        if (mapEvent) this.#mapEvent(input, { type: 'created', resource }, INITIAL_LIST);
        else if (input.kind === 'primary') this.#enqueue(resource.metadata, 0, resource);
        else this.deliver(input, { type: 'created', resource });
      }
    }
  }

  /**
   * Routes by input kind: a primary item is queued, a mapped one goes to `mapInput` (the
   * destroy-ready kind only once it is safe to destroy). A controller with `mapEvent` gets every
   * event there instead.
   */
  deliver(input: Input, event: ResourceEvent): void {
    // Registration admits only queue input kinds for a queue controller.
    const qinput = input as Input<QInputKind>;
    if (this.controller.mapEvent) {
      this.#mapEvent(qinput, event);
      return;
    }
    switch (qinput.kind) {
      case 'primary':
        if (
          !this.#ownWrites.isEmpty &&
          this.#ownWrites.isEcho(this.#keys.reconcileKey(event.resource.metadata), event)
        ) {
          break;
        }
        if (
          this.#skipFinalizerOnly &&
          event.type === 'updated' &&
          isFinalizerOnlyChange(event.old, event.resource, this.controller.name)
        ) {
          break;
        }
        this.#enqueue(event.resource.metadata, 0, event.resource);
        break;
      case 'mapped':
        this.#enqueueMap(toReducedMetadata(event.resource), event.resource);
        break;
      case 'mappedDestroyReady':
        if (isDestroyReady(event.resource))
          this.#enqueueMap(toReducedMetadata(event.resource), event.resource);
        break;
    }
  }

  /**
   * Retries what was given up (not what failed terminally) in an earlier convergence run, and
   * re-arms the pump, which a paused run may have left with ready keys.
   */
  resumeProcessing(): void {
    this.#retryGivenUp();
    this.resumeWaiting();
  }

  /** Re-arms the pump, which a paused run may have left with ready keys. */
  resumeWaiting(): void {
    this.#schedulePump();
  }

  /**
   * Aborts the controller's signal and takes no more jobs, waits for the reconciles in flight and
   * the run hook to end, then runs the shutdown hook (COSI: the workers' errgroup is waited for,
   * then `ShutdownHook`). Code that ignores its signal is waited for a grace period at most
   * (`STOP_GRACE_MS`): the facade is closed after it, so nothing it writes later lands in the
   * state, and the writes it had already handed to the state are waited for (as long again).
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort();
    this.#queue.clear();
    this.#runHook.cancel();
    const workers =
      this.#inFlight === 0
        ? undefined
        : new Promise<void>((resolve) => (this.#workersEnded = resolve));
    const running = [workers, this.#runHook.running].filter((p) => p !== undefined);
    if (running.length > 0) await settledWithin(Promise.all(running));
    await settledWithin(this.#facade.close());
    this.#condition = 'stopped';
    // COSI's `ShutdownHook` returns no error: a throw is logged, and the stop (of this
    // controller, and of the runtime's others) goes on as if it had returned.
    try {
      this.controller.settings.shutdownHook?.();
    } catch (error) {
      this.#log.error('shutdown hook failed', {
        ...errorLogFields(toError(error), this.host.locateError),
      });
    }
  }

  #retryGivenUp(): void {
    this.#failing.retryGivenUp((key, job) => this.#requeue(key, job));
    if (this.#condition === 'failed') {
      this.#condition = 'running';
      this.#runHook.retry();
    }
  }

  /** The facade's note of an own `addFinalizer` (before it writes; `undefined` after a miss). */
  #noteOwnFinalizerWrite(pointer: Pointer, write: OwnFinalizerWrite | undefined): void {
    const key = this.#keys.reconcileKey(pointer);
    if (write === undefined) this.#ownWrites.forget(key);
    // Only a primary input's event is ever checked against the note.
    else if (this.#keys.isPrimary(pointer)) this.#ownWrites.note(key, write);
  }

  /**
   * Queues a reconcile of a primary item. `triggers` (a change, or the changes a mapping was
   * for) are kept only for the recorder: a lone change is passed as is, no array made for it.
   */
  #enqueue(pointer: Pointer, delay = 0, triggers?: Resource | readonly Resource[]): void {
    if (this.#stopped) return;
    const key = this.#keys.reconcileKey(pointer);
    if (triggers && this.host.recorder) {
      this.#triggers.add(key, Array.isArray(triggers) ? triggers : [triggers as Resource]);
    }
    // The key of an item of the main kind is its id, which is all the job needs.
    this.#queue.add(key, key === pointer.id ? key : toPointer(pointer), delay);
    this.metrics.queueLength = this.#queue.size;
    this.#schedulePump();
  }

  /** Queues a mapping of a changed secondary input. */
  #enqueueMap(metadata: ReducedMetadata, trigger: Resource): void {
    const key = this.#keys.mapKey(metadata);
    if (this.host.recorder) this.#triggers.add(key, [trigger]);
    this.#requeue(key, new MapJob(metadata));
  }

  /** Queues a job under its key again (a retry after a failure, or another chance). */
  #requeue(key: string, job: Job, delay = 0): void {
    if (this.#stopped) return;
    this.#queue.add(key, job, delay);
    this.metrics.queueLength = this.#queue.size;
    this.#schedulePump();
  }

  /**
   * Hands a whole event to the controller's `mapEvent` and queues what it returns. A `mapEvent`
   * that throws (a builder's predicate or map function) fails the event as an item of the queue:
   * it is counted and reported as failing, and routed again with backoff until it routes or is
   * given up, where dropping it would leave the run looking converged with the change lost.
   */
  #mapEvent(input: Input<QInputKind>, event: ResourceEvent, context = LIVE): void {
    if (!this.controller.mapEvent || this.#stopped) return;
    let pointers: readonly Pointer[];
    // The mapping is the controller's code (a builder's predicates): a loop there is named.
    this.host.reconcileStarting?.(this.name, event.resource.metadata);
    const recorder = this.host.recorder;
    // A mapping here runs inside the delivery: recorded as a step of no duration.
    const seq = recorder
      ? recorder.start(this.name, 'route', event.resource.metadata, [event.resource])
      : 0;
    try {
      pointers = this.#route(input, event, context);
    } catch (error) {
      const key = this.#keys.routeKey(input, event);
      this.#failed(key, new RouteJob(input, event, context), error);
      if (seq !== 0) recorder?.end(seq, this.#outcomeOf(key, error));
      return;
    }
    if (seq !== 0) {
      recorder?.mapped(seq, pointers);
      recorder?.end(seq, { kind: 'ok' });
    }
    for (const pointer of pointers) {
      this.metrics.mappedOut++;
      this.#enqueue(pointer, 0, event.resource);
    }
  }

  /** Runs `mapEvent` on an event; throws what it throws, or that it returned no array. */
  #route(
    input: Input<QInputKind>,
    event: ResourceEvent,
    context: MapEventContext,
  ): readonly Pointer[] {
    this.metrics.mappedIn++;
    const pointers: unknown = (this.controller.mapEvent as NonNullable<QController['mapEvent']>)(
      input,
      event,
      context,
    );
    if (!Array.isArray(pointers)) {
      throw notPointers('mapEvent', this.name, describeReturned(pointers));
    }
    return pointers as readonly Pointer[];
  }

  /** Routes again an event whose routing threw, and queues what it returns; throws as it does. */
  #routeAgain(job: RouteJob, seq: number): void {
    const pointers = this.#route(job.input, job.event, job.context);
    if (seq !== 0) this.host.recorder?.mapped(seq, pointers);
    for (const pointer of pointers) {
      this.metrics.mappedOut++;
      this.#enqueue(pointer, 0, job.event.resource);
    }
  }

  /**
   * Arranges for the workers to take more keys. A queue that was idle starts through the wakeup
   * scheduler, in a macrotask of its own: the burst that woke it (a whole pass of an upstream
   * controller) is then complete and deduplicated, so each key is reconciled once for it. A queue
   * that is already draining goes on at once.
   */
  #schedulePump(): void {
    // Every worker is busy: they take what was queued when they are done.
    if (this.#pumpScheduled || this.#inFlight >= this.#concurrency) return;
    this.#pumpScheduled = true;
    if (this.#inFlight > 0) runSoon(this.#pump);
    else this.host.scheduler.schedule(this.#pump, this.controller.name);
  }

  /** Starts workers while keys are ready, up to `concurrency`. */
  readonly #pump = (): void => {
    this.#pumpScheduled = false;
    while (this.#inFlight < this.#concurrency && this.#queue.readyCount > 0 && this.#canTake()) {
      this.#inFlight++;
      void this.#work();
    }
  };

  #canTake(): boolean {
    return !this.host.scheduler.paused && !this.#stopped;
  }

  /**
   * One worker: takes the ready keys one after another, each as soon as the last is done, and
   * ends when none is ready (or the run is paused or stopped). A key queued while it works is
   * taken in turn; one queued again while it runs comes back after its `done`. Going straight
   * on, with one await of the controller's own promise per job, rather than a promise chain and
   * a pump per item, keeps the cost per item to the reconcile itself.
   *
   * A reconcile and a mapping fail and retry alike, as in COSI, where both are items of the one
   * queue: a mapping that throws is retried with its own backoff, so the change it was for is not
   * lost.
   */
  async #work(): Promise<void> {
    try {
      while (this.#canTake()) {
        const next = this.#queue.takeEntry();
        if (next === undefined) return;
        const { key, item: job } = next;
        const number = ++this.#jobsStarted;
        this.#running.add(number);
        this.#lastTaken = job;
        this.metrics.queueLength = this.#queue.size;
        this.metrics.wakeups++;
        this.host.onProgress();
        this.host.reconcileStarting?.(this.name, this.#keys.itemOf(job));
        const triggers = this.host.recorder ? this.#triggers.take(key) : undefined;
        const seq = triggers ? this.#startRecording(job, triggers) : 0;
        try {
          if (job instanceof MapJob) {
            await this.#map(job.metadata, seq, triggers);
          } else if (job instanceof RouteJob) {
            this.#routeAgain(job, seq);
          } else {
            this.metrics.reconciles++;
            const rt = seq === 0 ? this.#facade : this.#facade.scopedTo(seq);
            await this.controller.reconcile(rt, this.#keys.pointerOf(job), this.#log);
            this.metrics.processed++;
          }
          this.#failing.succeeded(key);
          if (seq !== 0) this.host.recorder?.end(seq, { kind: 'ok' });
        } catch (error) {
          if (this.#stopped) {
            if (seq !== 0) this.host.recorder?.end(seq, { kind: 'stopped' });
          } else {
            this.#failed(key, job, error);
            if (seq !== 0) this.host.recorder?.end(seq, this.#outcomeOf(key, error));
          }
        } finally {
          this.#running.delete(number);
          this.#completed++;
          this.#queue.doneEntry(next);
          this.metrics.queueLength = this.#queue.size;
        }
      }
    } finally {
      if (--this.#inFlight === 0) {
        this.host.workEnded();
        this.#workersEnded?.();
      }
    }
  }

  /** Opens the record of a job, with the changes that queued it. */
  #startRecording(job: Job, triggers: readonly Resource[]): number {
    const seq = (this.host.recorder as RunRecorder).start(
      this.name,
      job instanceof MapJob ? 'map' : job instanceof RouteJob ? 'route' : 'reconcile',
      this.#keys.itemOf(job),
      triggers,
      this.#queue.size,
    );
    return seq;
  }

  /** How a failed job ended, as the record names it (after {@link #failed} handled it). */
  #outcomeOf(key: string, error: unknown): ReconcileOutcome {
    return failedJobOutcome(error, this.#failing.get(key));
  }

  /**
   * What a thrown error does to the job. A plain `RequeueError` is a success that asks to come
   * back: the backoff and the failure record are cleared (COSI clears the backoff; controller-
   * runtime's `RequeueAfter` forgets the item in the rate limiter). One that wraps an error is a
   * failure retried after its own interval. One of no interval comes back after the item's
   * backoff, which it keeps growing (controller-runtime's `Requeue: true`, rate-limited).
   */
  #failed(key: string, job: Job, error: unknown): void {
    const pointer = this.#keys.itemOf(job);
    const what =
      job instanceof MapJob ? 'mapInput' : job instanceof RouteJob ? 'mapEvent' : 'reconcile';
    if (isSkip(error)) {
      this.metrics.skips++;
      this.#failing.succeeded(key);
    } else if (isRequeue(error)) {
      // No interval (0, or less): the item's backoff, as controller-runtime's `Requeue: true`
      // is rate-limited; taken as it was, it came back at once, forever, and neither the
      // simulated clock nor the write bound ever moved.
      const rateLimited = !(error.interval > 0);
      if (error.cause === undefined) {
        this.metrics.requeues++;
        if (rateLimited) this.#failing.forgetFailure(key);
        else this.#failing.succeeded(key);
      } else {
        this.metrics.crashes++;
        this.#recordFailure(key, job, pointer, toError(error.cause));
      }
      this.#requeue(key, job, rateLimited ? this.#failing.backoffFor(key).next() : error.interval);
    } else if (isTerminal(error)) {
      this.metrics.crashes++;
      this.#recordFailure(key, job, pointer, error, true);
      this.#log.error(`${what} failed with a terminal error, not retrying`, {
        resource: formatPointer(pointer),
        ...errorLogFields(error, this.host.locateError),
      });
    } else {
      const err = toError(error);
      this.metrics.crashes++;
      const gaveUp = this.#recordFailure(key, job, pointer, err);
      this.#log.error(`${what} failed`, {
        resource: formatPointer(pointer),
        ...errorLogFields(err, this.host.locateError),
      });
      if (!gaveUp) this.#requeue(key, job, this.#failing.backoffFor(key).next());
    }
  }

  /** Maps a changed input to primary items and queues them; throws what `mapInput` throws. */
  async #map(
    metadata: ReducedMetadata,
    seq: number,
    triggers: readonly Resource[] | undefined,
  ): Promise<void> {
    this.metrics.mappedIn++;
    // Map jobs are queued only for a controller without `mapEvent`, which has `mapInput`.
    const rt = seq === 0 ? this.#facade : this.#facade.scopedTo(seq);
    const pointers = primaryPointers(
      await this.controller.mapInput?.(rt, metadata, this.#log),
      this.controller,
      (pointer) => this.#keys.isPrimary(pointer),
    );
    if (seq !== 0) this.host.recorder?.mapped(seq, pointers);
    for (const pointer of pointers) {
      this.metrics.mappedOut++;
      // The items it queued were woken by the change it mapped.
      this.#enqueue(pointer, 0, triggers);
    }
  }

  /** Returns true when the item is given up (attempt bound reached). */
  #recordFailure(key: string, job: Job, pointer: Pointer, error: Error, terminal = false): boolean {
    this.#lastError = error;
    return this.#failing.record(key, job, pointer, error, terminal);
  }
}
