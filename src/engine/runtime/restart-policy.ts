import { ExponentialBackoff, type BackoffOptions } from './backoff.js';
import type { Timer } from './clock.js';
import type { RuntimeHost } from './runtime-host.js';

/** What a crash leads to: a restart after a backoff, or giving up (the attempt bound was hit). */
export type CrashOutcome = 'backoff' | 'failed';

/**
 * When to restart something that crashed (a whole-world controller's `run`, a queue controller's
 * run hook): after an exponential backoff, counted in consecutive crashes, until the runtime's
 * attempt bound says to give up.
 *
 * @example
 * const restarts = new RestartPolicy(host, backoff);
 * // in the crash handler:
 * if (restarts.crashed(() => relaunch()) === 'failed') condition = 'failed';
 */
export class RestartPolicy {
  readonly #backoff: ExponentialBackoff;
  #timer: Timer | undefined;
  #retryAt: number | undefined;

  constructor(
    private readonly host: Pick<RuntimeHost, 'setTimer' | 'maxAttempts' | 'clock'>,
    options: BackoffOptions,
  ) {
    this.#backoff = new ExponentialBackoff(options);
  }

  /** When the restart that is waiting is due (clock ms); `undefined` when none waits. */
  get retryAt(): number | undefined {
    return this.#retryAt;
  }

  /** Crashes since the last reset. */
  get attempts(): number {
    return this.#backoff.attempts;
  }

  /**
   * Counts a crash. When it was the last attempt the runtime allows, gives up: `'failed'`.
   * Otherwise calls `restart` once the backoff interval has passed: `'backoff'`.
   */
  crashed(restart: () => void): CrashOutcome {
    const delay = this.#backoff.next();
    if (this.#backoff.attempts >= this.host.maxAttempts()) return 'failed';
    this.#retryAt = this.host.clock.now() + delay;
    this.#timer = this.host.setTimer(delay, () => {
      this.#timer = undefined;
      this.#retryAt = undefined;
      restart();
    });
    return 'backoff';
  }

  /** The next crash waits the initial interval again (a healthy run, or another chance). */
  reset(): void {
    this.#backoff.reset();
  }

  /** Drops a restart that is waiting (on stop). */
  cancel(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#retryAt = undefined;
  }
}
