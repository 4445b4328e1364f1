/** Settings of an exponential backoff; the defaults are COSI's (cenkalti/backoff). */
export interface BackoffOptions {
  /** First interval, ms. */
  readonly initial?: number;
  readonly multiplier?: number;
  /** Longest interval, ms. */
  readonly max?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = {
  initial: 500,
  multiplier: 1.5,
  max: 60_000,
};

/**
 * An exponential backoff without jitter: COSI randomises ±50%, but a deterministic run needs the
 * same intervals every time.
 */
export class ExponentialBackoff {
  readonly #options: Required<BackoffOptions>;
  #attempts = 0;

  constructor(options: BackoffOptions = {}) {
    this.#options = { ...DEFAULT_BACKOFF, ...options };
  }

  /** Failures since the last reset. */
  get attempts(): number {
    return this.#attempts;
  }

  /** The interval to wait before the next attempt; counts one more failure. */
  next(): number {
    const { initial, multiplier, max } = this.#options;
    const interval = Math.min(max, initial * multiplier ** this.#attempts);
    this.#attempts++;
    return Math.round(interval);
  }

  reset(): void {
    this.#attempts = 0;
  }
}
