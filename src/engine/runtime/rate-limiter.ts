import type { Clock, Timer } from './clock.js';

/**
 * How often a controller may change the state: COSI's `WithChangeRateLimit(limit, burst)`. Each
 * controller gets a limiter of its own with these settings, and every write it makes (create,
 * update, modify, teardown, destroy, finalizer changes) first waits for its turn.
 */
export interface ChangeRateLimit {
  /** Writes per second, refilled evenly. */
  readonly limit: number;
  /** Writes allowed at once after a quiet spell; at least 1. */
  readonly burst: number;
}

/** Why a change rate limit cannot be used, or `undefined` when it can. */
export function changeRateLimitProblem(limit: ChangeRateLimit): string | undefined {
  if (!(limit.limit > 0)) {
    return `changeRateLimit.limit must be a positive number of writes per second, got ${String(limit.limit)}`;
  }
  if (!Number.isInteger(limit.burst) || limit.burst < 1) {
    return `changeRateLimit.burst must be a whole number of at least 1, got ${String(limit.burst)}`;
  }
  return undefined;
}

/**
 * A token bucket on an injected clock, as golang.org/x/time/rate's `Limiter.Wait`: it starts
 * full (`burst` tokens), refills at `limit` per second, and each call takes a token, waiting
 * until the bucket has paid it back. Waiters are served in the order they came: a token is
 * reserved at the call, so later calls wait longer.
 */
export class RateLimiter {
  readonly #perMs: number;
  readonly #burst: number;
  #tokens: number;
  #last: number;

  constructor(
    private readonly clock: Pick<Clock, 'now' | 'setTimer'>,
    limit: ChangeRateLimit,
  ) {
    this.#perMs = limit.limit / 1000;
    this.#burst = limit.burst;
    this.#tokens = limit.burst;
    this.#last = clock.now();
  }

  /**
   * Takes a token; resolves at once when one is there, else once it is. Rejects with the abort
   * reason if `signal` aborts first, and gives the token back.
   */
  wait(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(toReason(signal));
    const now = this.clock.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#last) * this.#perMs);
    this.#last = now;
    this.#tokens -= 1;
    if (this.#tokens >= 0) return Promise.resolve();
    const delay = Math.ceil(-this.#tokens / this.#perMs);
    return new Promise<void>((resolve, reject) => {
      let timer: Timer | undefined = undefined;
      const onAbort = (): void => {
        timer?.cancel();
        this.#tokens += 1;
        reject(toReason(signal));
      };
      timer = this.clock.setTimer(delay, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

const toReason = (signal: AbortSignal | undefined): Error =>
  signal?.reason instanceof Error ? signal.reason : new Error('rate limited write aborted');
