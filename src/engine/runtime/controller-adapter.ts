import { ExponentialBackoff, type BackoffOptions } from './backoff.js';
import type {
  Controller,
  ControllerInputKind,
  ControllerRuntime,
  Input,
  ReconcileEvent,
} from './controller.js';
import { ControllerFacade, type FacadeHost } from './controller-facade.js';
import { RegistrationError } from '../errors.js';
import type { Logger } from './logger.js';
import { createMetrics, type ControllerState, type ControllerStatus } from './metrics.js';
import type { RuntimeHost } from './runtime-host.js';

/**
 * Runs one whole-world controller: the coalescing wakeup, the `run` loop and its restarts with
 * exponential backoff.
 */
export class ControllerAdapter {
  readonly metrics = createMetrics();
  readonly facade: ControllerRunFacade;
  readonly #backoff: ExponentialBackoff;
  readonly #log: Logger;
  #state: ControllerState = 'idle';
  #lastError: Error | undefined;
  #abort = new AbortController();
  /** A reconcile is owed. */
  #pending = false;
  #pendingReason: ReconcileEvent['reason'] = 'start';
  /** Set while `run` waits for the next event. */
  #waiter: (() => void) | undefined;
  #wakeScheduled = false;
  #running: Promise<void> | undefined;
  #restartTimer: { cancel(): void } | undefined;
  #started = false;

  constructor(
    readonly controller: Controller,
    private readonly host: RuntimeHost,
    backoff: BackoffOptions,
  ) {
    this.#backoff = new ExponentialBackoff(backoff);
    this.#log = host.logger.child({ controller: controller.name });
    const facadeHost: FacadeHost = {
      state: host.state,
      clock: host.clock,
      inputs: () => host.db.inputs(controller.name),
      onWrite: (name, pointer) => host.onWrite(name, pointer),
    };
    this.facade = new ControllerRunFacade(
      controller.name,
      controller.outputs,
      this.metrics,
      facadeHost,
    ).bind(this.#controls());
  }

  get name(): string {
    return this.controller.name;
  }

  get status(): ControllerStatus {
    return this.#lastError
      ? { state: this.#state, lastError: this.#lastError }
      : { state: this.#state };
  }

  /** Failures since the last successful reconcile signal. */
  get attempts(): number {
    return this.#backoff.attempts;
  }

  /** Nothing to do right now: waiting for events, backing off, failed or stopped. */
  get idle(): boolean {
    if (this.#state === 'backoff' || this.#state === 'failed' || this.#state === 'stopped')
      return true;
    return (this.#waiter !== undefined && !this.#pending) || this.host.scheduler.paused;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#launch('start');
  }

  /** An input changed. */
  trigger(reason: ReconcileEvent['reason'] = 'input'): void {
    if (this.#pending) return;
    this.#pending = true;
    this.#pendingReason = reason;
    this.#wake();
  }

  /** Brings a failed controller back (a new convergence run gives it another chance). */
  revive(): void {
    if (this.#state !== 'failed') return;
    this.#launch('restart');
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    this.#restartTimer?.cancel();
    this.#restartTimer = undefined;
    this.#waiter?.();
    await this.#running;
    this.#state = 'stopped';
  }

  #launch(reason: ReconcileEvent['reason']): void {
    this.#state = 'running';
    this.#pending = true;
    this.#pendingReason = reason;
    const signal = this.#abort.signal;
    this.#running = this.#runOnce(signal);
  }

  async #runOnce(signal: AbortSignal): Promise<void> {
    try {
      await this.controller.run(this.facade, signal, this.#log);
      if (!signal.aborted) this.#state = 'stopped';
    } catch (error) {
      if (signal.aborted) return;
      this.#crashed(toError(error));
    } finally {
      this.#waiter = undefined;
    }
  }

  #crashed(error: Error): void {
    this.metrics.crashes++;
    this.#lastError = error;
    this.#log.error('controller failed', { error: error.message });
    const attempts = this.#backoff.attempts + 1;
    if (attempts >= this.host.maxAttempts()) {
      this.#backoff.next();
      this.#state = 'failed';
      return;
    }
    this.#state = 'backoff';
    const delay = this.#backoff.next();
    this.#restartTimer = this.host.setTimer(delay, () => {
      this.#restartTimer = undefined;
      this.host.scheduler.schedule(() => {
        if (this.#abort.signal.aborted) return;
        this.metrics.restarts++;
        this.#launch('restart');
      });
    });
  }

  #wake(): void {
    if (!this.#waiter || this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    this.host.scheduler.schedule(() => {
      this.#wakeScheduled = false;
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter?.();
    });
  }

  /**
   * The event stream `run` iterates. Every wakeup, even one already owed, goes through the
   * scheduler, so each pass runs in a macrotask of its own after the passes asked for before it.
   */
  async *#events(): AsyncGenerator<ReconcileEvent> {
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
        if (this.#pending) this.#wake();
      });
      // Aborting resolves the waiter too.
      if (this.#abort.signal.aborted) return;
      if (!this.#pending) continue;
      this.#pending = false;
      this.metrics.wakeups++;
      this.metrics.reconciles++;
      this.host.onProgress();
      yield { reason: this.#pendingReason };
    }
  }

  /** The calls only a whole-world controller has. */
  #controls(): RunControls {
    return {
      events: () => this.#events(),
      queueReconcile: () => this.trigger('requested'),
      resetRestartBackoff: () => this.#backoff.reset(),
      updateInputs: (inputs) => {
        const problems = this.host.db.replaceInputs(this.name, inputs);
        if (problems.length > 0) throw new RegistrationError(problems);
        this.host.inputsChanged(this.name);
      },
    };
  }

  get state(): ControllerState {
    return this.#state;
  }
}

type RunControls = Pick<
  ControllerRuntime,
  'events' | 'queueReconcile' | 'resetRestartBackoff' | 'updateInputs'
>;

/** The facade plus the run-loop controls: what a whole-world controller's `run` receives. */
class ControllerRunFacade extends ControllerFacade implements ControllerRuntime {
  #controls: RunControls | undefined;

  bind(controls: RunControls): this {
    this.#controls = controls;
    return this;
  }

  get #c(): RunControls {
    if (!this.#controls) throw new Error('controller runtime used before it was bound');
    return this.#controls;
  }

  events(): AsyncIterable<ReconcileEvent> {
    return this.#c.events();
  }

  queueReconcile(): void {
    this.#c.queueReconcile();
  }

  resetRestartBackoff(): void {
    this.#c.resetRestartBackoff();
  }

  updateInputs(inputs: readonly Input<ControllerInputKind>[]): void {
    this.#c.updateInputs(inputs);
  }
}

export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
