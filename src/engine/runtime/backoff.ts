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
 * Why backoff settings cannot be used, or `undefined` when they can. `what` names them in the
 * message (`backoff`, `controller "x": backoff`). A `NaN` interval would put a timer at `NaN`,
 * which a simulated clock then takes for its time: every timestamp after it would be `NaN`.
 */
export function backoffProblem(options: BackoffOptions, what: string): string | undefined {
  const { initial, multiplier, max } = options;
  const wrong: string[] = [];
  if (initial !== undefined && !(Number.isFinite(initial) && initial >= 0)) {
    wrong.push(`initial must be a finite number of ms, 0 or more, got ${String(initial)}`);
  }
  if (multiplier !== undefined && !(Number.isFinite(multiplier) && multiplier >= 1)) {
    wrong.push(`multiplier must be a finite number, 1 or more, got ${String(multiplier)}`);
  }
  if (max !== undefined && !(typeof max === 'number' && max >= 0)) {
    wrong.push(`max must be a number of ms, 0 or more, got ${String(max)}`);
  }
  return wrong.length === 0 ? undefined : `${what}: ${wrong.join('; ')}`;
}

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
