/**
 * A queue controller's run hook: started with the controller, restarted with backoff when it
 * throws, until the runtime's attempt bound gives it up.
 */
import type { BackoffOptions } from './backoff.js';
import type { QController, QRuntime } from './controller.js';
import { toError } from '../errors.js';
import type { Logger } from './logger.js';
import { RestartPolicy } from './restart-policy.js';
import type { RuntimeHost } from './runtime-host.js';

/** How long (ms) a run hook's run lasts before its failure no longer counts with the earlier ones. */
const HOOK_HEALTHY_RUN = 60_000;

/** What a run hook's crashes tell its controller. */
export interface RunHookEvents {
  /** It threw (not on stop): counted, and its error is the controller's last. */
  crashed(error: Error): void;
  /** It is started again after a crash. */
  restarted(): void;
  /** It crashed the last time the attempt bound allows. */
  gaveUp(): void;
}

/** Runs the run hook of one queue controller, if it has one. */
export class RunHook {
  readonly #hook: QController['settings']['runHook'];
  readonly #restarts: RestartPolicy;
  #running: Promise<void> | undefined;

  constructor(
    hook: QController['settings']['runHook'],
    private readonly host: Pick<RuntimeHost, 'setTimer' | 'maxAttempts' | 'clock'>,
    backoff: BackoffOptions,
    private readonly rt: QRuntime,
    private readonly signal: AbortSignal,
    private readonly log: Logger,
    private readonly events: RunHookEvents,
  ) {
    this.#hook = hook;
    this.#restarts = new RestartPolicy(host, backoff);
  }

  /** The run of the hook now (or the last one), until it ends. */
  get running(): Promise<void> | undefined {
    return this.#running;
  }

  start(): void {
    const hook = this.#hook;
    if (!hook) return;
    const signal = this.signal;
    const started = this.host.clock.now();
    this.#running = (async () => {
      try {
        await hook(this.rt, signal, this.log);
      } catch (error) {
        if (signal.aborted) return;
        this.events.crashed(toError(error));
        // A run that lasted long enough was healthy: its failure backs off from the start again,
        // as COSI's run hook does: a hook that fails now and then is not restarted later and later.
        if (this.host.clock.now() - started > HOOK_HEALTHY_RUN) this.#restarts.reset();
        const outcome = this.#restarts.crashed(() => {
          if (signal.aborted) return;
          this.events.restarted();
          this.start();
        });
        // While the hook backs off the workers go on: only giving up shows in the condition.
        if (outcome === 'failed') this.events.gaveUp();
      }
    })();
  }

  /** Starts it again after it was given up: another chance, from the initial backoff. */
  retry(): void {
    this.#restarts.reset();
    this.start();
  }

  /** Drops a restart that is waiting (on stop). */
  cancel(): void {
    this.#restarts.cancel();
  }
}
