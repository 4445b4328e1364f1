import { isDestroyReady } from '../resource/resource.js';
import type { ResourceEvent } from '../state/state.js';
import type { Adapter, AdapterReport } from './adapter.js';
import type { BackoffOptions } from './backoff.js';
import { formatPointer, pointerKey, type Kind, type Pointer } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import {
  type Controller,
  type ControllerInputKind,
  type ControllerRuntime,
  type Input,
  type Output,
  type ReconcileEvent,
} from './controller.js';
import { ControllerFacade, type FacadeHost } from './controller-facade.js';
import { isFinalizerOnlyChange } from './finalizer-only-change.js';
import { RegistrationError, isCodeFault, toError } from '../errors.js';
import { errorLogFields, failedResources, toErrorRecord } from './error-record.js';
import type { Logger } from './logger.js';
import {
  createMetrics,
  type ControllerCondition,
  type ControllerMetrics,
  type ControllerStatus,
} from './metrics.js';
import { InputChangeCollector } from './input-changes.js';
import { QueueTiming, type QueueWorkload } from './queue-metrics.js';
import { OutputTracker } from './output-tracker.js';
import { RestartPolicy } from './restart-policy.js';
import type { ReconcileOutcome } from '../record/run-record.js';
import type { RuntimeHost } from './runtime-host.js';
import { settledWithin } from './stopping.js';

/**
 * Runs one whole-world controller: the coalescing wakeup, the `run` loop and its restarts with
 * exponential backoff.
 */
export class ControllerAdapter implements Adapter {
  readonly metrics = createMetrics();
  readonly #facade: ControllerRunFacade;
  readonly #restarts: RestartPolicy;
  readonly #log: Logger;
  #condition: ControllerCondition = 'idle';
  #lastError: Error | undefined;
  #abort = new AbortController();
  /** A reconcile is owed. */
  #pending = false;
  #pendingReason: ReconcileEvent['reason'] = 'start';
  /** Between the yield of an event and the ask for the next: a pass runs. */
  #inPass = false;
  /** Passes ended, for {@link owed}. */
  #passes = 0;
  /** Set while `run` waits for the next event. */
  #waiter: (() => void) | undefined;
  #wakeScheduled = false;
  #running: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;
  #started = false;
  /** With a recorder: the changes that woke the pending pass, and the pass being recorded. */
  #triggers: Resource[] = [];
  #recording = 0;
  /** The inputs changed since the pass before, for {@link ReconcileEvent.changes}. */
  readonly #changes = new InputChangeCollector();
  /**
   * With `RuntimeOptions.queueMetrics`: the timing of its queue, which is its owed pass (one at
   * most, a wakeup while one is owed adds nothing), {@link #pass}.
   */
  readonly #timing: QueueTiming | undefined;
  readonly #pass = {};

  constructor(
    private readonly controller: Controller,
    private readonly host: RuntimeHost,
    backoff: BackoffOptions,
  ) {
    this.#restarts = new RestartPolicy(host, backoff);
    this.#log = host.logger.child({ controller: controller.name });
    const sink = host.queueMetrics;
    this.#timing = sink && new QueueTiming(controller.name, sink);
    this.#facade = new ControllerRunFacade(
      controller.name,
      controller.outputs,
      () => host.db.inputs(controller.name),
      this.metrics,
      host,
      this.#controls(),
      this.#abort.signal,
    );
  }

  get name(): string {
    return this.controller.name;
  }

  get status(): ControllerStatus {
    const condition = this.#shownCondition;
    return this.#lastError ? { condition, lastError: this.#lastError } : { condition };
  }

  /**
   * The condition as reported: a run waiting for its next event, with none pending, is idle (as
   * a queue controller with nothing ready is), not running: a converged round listed it running
   * beside its verdict.
   */
  get #shownCondition(): ControllerCondition {
    const condition = this.#condition;
    return condition === 'running' && this.#waiter !== undefined && !this.#pending
      ? 'idle'
      : condition;
  }

  get working(): boolean {
    return this.#inPass;
  }

  get completed(): number {
    return this.#passes;
  }

  get runningJobs(): string {
    return this.#inPass ? String(this.#passes) : '';
  }

  workload(): QueueWorkload {
    const underway = this.#timing?.underway();
    return {
      depth: this.#timing?.depth ?? (this.#pending ? 1 : 0),
      activeWorkers: underway?.active ?? (this.#inPass ? 1 : 0),
      maxWorkers: 1,
      unfinishedSeconds: underway?.unfinishedSeconds ?? 0,
      longestSeconds: underway?.longestSeconds ?? 0,
    };
  }

  get owed(): number {
    return this.#passes + (this.#inPass ? 1 : 0) + (this.#pending ? 1 : 0);
  }

  /** Nothing to do right now: waiting for events, backing off, failed or stopped. */
  get idle(): boolean {
    const condition = this.#condition;
    if (condition === 'backoff' || condition === 'failed' || condition === 'stopped') return true;
    return (this.#waiter !== undefined && !this.#pending) || this.host.scheduler.paused;
  }

  start(): Promise<void> {
    if (!this.#started) {
      this.#started = true;
      this.#launch('start');
    }
    return Promise.resolve();
  }

  /** Weak and strong inputs wake the controller on every change, destroyReady ones when safe. */
  deliver(input: Input, event: ResourceEvent): void {
    if (
      this.controller.skipFinalizerOnlyWakeups === true &&
      input.kind !== 'destroyReady' &&
      event.type === 'updated' &&
      isFinalizerOnlyChange(event.old, event.resource, this.controller.name)
    ) {
      return;
    }
    // Counted as a change even when it does not wake the controller.
    this.#changes.add(event.resource.metadata);
    if (input.kind === 'destroyReady' && !isDestroyReady(event.resource)) return;
    if (this.host.recorder) this.#triggers.push(event.resource);
    this.#trigger('input');
  }

  /** A controller given up in an earlier convergence run is started again. */
  resumeProcessing(): void {
    if (this.#condition !== 'failed') return;
    this.#launch('restart');
  }

  /** A pass's wakeup held by a paused run is in the scheduler's queue: resuming it runs it. */
  resumeWaiting(): void {}

  report(): AdapterReport {
    return {
      kind: 'controller',
      condition: this.#shownCondition,
      ...(this.#lastError
        ? { lastError: toErrorRecord(this.#lastError, this.host.locateError) }
        : {}),
      failingItems: [],
      waitingItems: [],
      ...(this.#condition === 'backoff' && this.#restarts.retryAt !== undefined
        ? { retryAt: this.#restarts.retryAt }
        : {}),
    };
  }

  /**
   * Aborts the run's signal and waits for the run to end. A run that ignores its signal and
   * never returns (it awaits a promise that never settles) must not hold the stop forever: it is
   * left behind after a grace period (`STOP_GRACE_MS`), and its facade is closed, so nothing it
   * writes later lands in the state (the writes it had already handed to the state are waited
   * for, as long again).
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    this.#abort.abort();
    this.#restarts.cancel();
    this.#timing?.cleared();
    this.#waiter?.();
    const running = this.#running;
    if (running !== undefined) await settledWithin(running);
    await settledWithin(this.#facade.close());
    this.#condition = 'stopped';
  }

  #trigger(reason: ReconcileEvent['reason']): void {
    if (this.#pending) return;
    this.#pending = true;
    this.#pendingReason = reason;
    this.#timing?.ready(this.#pass);
    this.#wake();
  }

  #launch(reason: ReconcileEvent['reason']): void {
    this.#condition = 'running';
    this.#pending = true;
    this.#pendingReason = reason;
    this.#timing?.ready(this.#pass);
    const signal = this.#abort.signal;
    this.#running = this.#runOnce(signal);
  }

  async #runOnce(signal: AbortSignal): Promise<void> {
    try {
      // The run's code before its first event is the controller's too: a loop there is named.
      this.host.reconcileStarting?.(this.name, undefined);
      await this.controller.run(this.#facade, signal, this.#log);
      if (!signal.aborted) this.#condition = 'stopped';
    } catch (error) {
      if (signal.aborted) return;
      this.#endPass({
        kind: 'error',
        message: toError(error).message,
        ...(isCodeFault(error) ? { fault: true as const } : {}),
      });
      this.#crashed(toError(error));
    } finally {
      this.#endPass(signal.aborted ? { kind: 'stopped' } : { kind: 'ok' });
      this.#passEnded();
      this.#waiter = undefined;
      // A pass that ended by a crash or a stop leaves no tracking behind (as in COSI).
      this.#facade.endTracking();
    }
  }

  #crashed(error: Error): void {
    this.metrics.crashes++;
    this.#lastError = error;
    this.#log.error('controller failed', {
      ...resourceFields(failedResources(error)),
      ...errorLogFields(error, this.host.locateError),
    });
    // The restart waits for its turn in the scheduler, like every other wakeup.
    this.#condition = this.#restarts.crashed(() =>
      this.host.scheduler.schedule(() => {
        if (this.#abort.signal.aborted) return;
        this.metrics.restarts++;
        this.#launch('restart');
      }, this.controller.name),
    );
  }

  #wake(): void {
    if (!this.#waiter || this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    this.host.scheduler.schedule(() => {
      this.#wakeScheduled = false;
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter?.();
    }, this.controller.name);
  }

  #passEnded(): void {
    if (!this.#inPass) return;
    this.#inPass = false;
    this.#passes++;
    this.#timing?.done(this.#pass);
    this.host.workEnded();
  }

  /**
   * The event stream `run` iterates. Every wakeup, even one already owed, goes through the
   * scheduler, so each pass runs in a macrotask of its own after the passes asked for before it.
   */
  async *#events(): AsyncGenerator<ReconcileEvent> {
    const signal = this.#abort.signal;
    // The first pass of this run has nothing to count changes from.
    let first = true;
    while (!signal.aborted) {
      // Asking for the next event ends the pass before it.
      this.#endPass({ kind: 'ok' });
      this.#passEnded();
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
        if (this.#pending) this.#wake();
      });
      // Aborting resolves the waiter too.
      if (this.#abort.signal.aborted) return;
      if (!this.#pending) continue;
      this.#pending = false;
      this.#timing?.taken(this.#pass);
      this.metrics.wakeups++;
      this.metrics.reconciles++;
      this.host.onProgress();
      this.host.reconcileStarting?.(this.name, undefined);
      const recorder = this.host.recorder;
      if (recorder) {
        this.#recording = recorder.start(this.name, 'run', undefined, this.#triggers);
        this.#facade.recordSeq = this.#recording;
        this.#triggers = [];
      }
      if (first) this.#changes.start();
      const changes = first ? undefined : this.#changes.take();
      first = false;
      this.#inPass = true;
      yield changes ? { reason: this.#pendingReason, changes } : { reason: this.#pendingReason };
    }
  }

  /** Records how the pass being recorded ended (nothing without a recorder or an open pass). */
  #endPass(outcome: ReconcileOutcome): void {
    if (this.#recording === 0) return;
    this.host.recorder?.end(this.#recording, outcome);
    this.#recording = 0;
  }

  /** The calls only a whole-world controller has. */
  #controls(): RunControls {
    return {
      events: () => this.#events(),
      queueReconcile: () => this.#trigger('requested'),
      resetRestartBackoff: () => this.#restarts.reset(),
      updateInputs: (inputs) => {
        const problems = this.host.db.replaceInputs(this.name, inputs);
        if (problems.length > 0) {
          throw new RegistrationError(
            problems,
            `controller ${JSON.stringify(this.name)} cannot update its inputs`,
          );
        }
        this.host.inputsChanged(this.name);
      },
      workingOn: (pointer) => this.host.reconcileStarting?.(this.name, pointer),
    };
  }
}

/** The run-loop controls a whole-world controller's facade hands on to whoever runs it. */
export type RunControls = Pick<
  ControllerRuntime,
  'events' | 'queueReconcile' | 'resetRestartBackoff' | 'updateInputs' | 'workingOn'
>;

/**
 * The facade plus the run-loop controls and the output tracking: what a whole-world controller's
 * `run` receives.
 */
export class ControllerRunFacade extends ControllerFacade implements ControllerRuntime {
  readonly #controls: RunControls;
  readonly #outputs = new OutputTracker();

  constructor(
    name: string,
    outputs: readonly Output[],
    inputs: () => readonly Input[],
    metrics: ControllerMetrics,
    host: FacadeHost,
    controls: RunControls,
    lifetime: AbortSignal,
  ) {
    super(name, outputs, inputs, metrics, host, lifetime);
    this.#controls = controls;
  }

  events(): AsyncIterable<ReconcileEvent> {
    return this.#controls.events();
  }

  queueReconcile(): void {
    this.#controls.queueReconcile();
  }

  resetRestartBackoff(): void {
    this.#controls.resetRestartBackoff();
  }

  updateInputs(inputs: readonly Input<ControllerInputKind>[]): void {
    this.#controls.updateInputs(inputs);
  }

  workingOn(pointer: Pointer | undefined): void {
    this.#controls.workingOn?.(pointer);
  }

  /** A whole-world controller declares what it reads as a weak input. */
  protected override readInputKind(): 'weak' {
    return 'weak';
  }

  /** Every output written this pass, for `cleanupOutputs`. */
  protected override settled(pointer: Pointer): void {
    this.#outputs.touch(pointer);
  }

  startTrackingOutputs(): void {
    this.#outputs.start(this.name);
  }

  async cleanupOutputs(...kinds: Kind[]): Promise<void> {
    const written = this.#outputs.written(this.name);
    for (const kind of kinds) {
      for (const resource of await this.list(kind)) {
        const md = resource.metadata;
        if (md.owner !== this.name || written.has(pointerKey(md))) continue;
        await this.destroy(md);
      }
    }
    this.#outputs.stop();
    this.resetRestartBackoff();
  }

  /** Drops the tracking of a pass that did not reach `cleanupOutputs`. */
  endTracking(): void {
    this.#outputs.stop();
  }
}

/** The most resources a failed pass's log line names one by one. */
const NAMED_RESOURCES = 10;

/**
 * How a failed pass's log line names what it failed on: `resource` when it is one resource, as a
 * queue controller's failed reconcile; `resources` (the first {@link NAMED_RESOURCES}, then how
 * many more) when it is several.
 */
function resourceFields(pointers: readonly Pointer[]): Record<string, string> {
  if (pointers.length === 0) return {};
  if (pointers.length === 1) return { resource: formatPointer(pointers[0] as Pointer) };
  const named = pointers.slice(0, NAMED_RESOURCES).map(formatPointer).join(', ');
  const more = pointers.length - NAMED_RESOURCES;
  return { resources: more > 0 ? `${named} and ${more} more` : named };
}
