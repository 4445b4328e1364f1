/**
 * A queue controller's items (reconciles and mappings) that failed and have not succeeded since,
 * with each one's exponential backoff: what its condition, its retries and its report read.
 */

import { compareStrings } from '../compare-strings.js';
import { pointerKey, type Pointer } from '../resource/pointer.js';
import { ExponentialBackoff, type BackoffOptions } from './backoff.js';
import type { Job } from './queue-jobs.js';

/** An item (a reconcile or a mapping) that keeps failing, as the report shows it. */
export interface FailingItem {
  /** What is retried. */
  readonly job: Job;
  /** The primary item, or the changed input a mapping is for. */
  readonly pointer: Pointer;
  readonly attempts: number;
  readonly lastError: Error;
  /** Given up for this convergence run. */
  readonly gaveUp: boolean;
  /** A terminal error: not retried, not even by the next convergence run, until a new event. */
  readonly terminal: boolean;
}

/** The failing items and the backoffs, by queue key. */
export class FailingItems {
  readonly #backoffs = new Map<string, ExponentialBackoff>();
  readonly #failing = new Map<string, FailingItem>();

  /**
   * @param backoffOptions each key's backoff.
   * @param maxAttempts the attempts after which an item is given up, read at each failure.
   */
  constructor(
    private readonly backoffOptions: BackoffOptions,
    private readonly maxAttempts: () => number,
  ) {}

  get size(): number {
    return this.#failing.size;
  }

  get(key: string): FailingItem | undefined {
    return this.#failing.get(key);
  }

  /** Whether an item was given up. */
  anyGivenUp(): boolean {
    for (const item of this.#failing.values()) if (item.gaveUp) return true;
    return false;
  }

  /** The items, sorted by pointer. */
  sorted(): FailingItem[] {
    return [...this.#failing.values()].sort((a, b) =>
      compareStrings(pointerKey(a.pointer), pointerKey(b.pointer)),
    );
  }

  /** The earliest of the retries not given up, as `releaseAt` tells each key's (clock ms). */
  nextRetryAt(releaseAt: (key: string) => number | undefined): number | undefined {
    let next: number | undefined;
    for (const [key, failing] of this.#failing) {
      if (failing.gaveUp) continue;
      const at = releaseAt(key);
      if (at !== undefined && (next === undefined || at < next)) next = at;
    }
    return next;
  }

  /**
   * Takes back the items given up (not the terminal ones), their backoffs from the start; calls
   * `retry` for each.
   */
  retryGivenUp(retry: (key: string, job: Job) => void): void {
    for (const [key, item] of this.#failing) {
      if (!item.gaveUp || item.terminal) continue;
      this.#failing.set(key, { ...item, gaveUp: false });
      this.#backoffs.get(key)?.reset();
      retry(key, item.job);
    }
  }

  /** The key's backoff, made at its first use. */
  backoffFor(key: string): ExponentialBackoff {
    let backoff = this.#backoffs.get(key);
    if (!backoff) this.#backoffs.set(key, (backoff = new ExponentialBackoff(this.backoffOptions)));
    return backoff;
  }

  /** Counts a failure; returns true when the item is given up (attempt bound reached). */
  record(key: string, job: Job, pointer: Pointer, error: Error, terminal = false): boolean {
    const attempts = (this.#failing.get(key)?.attempts ?? 0) + 1;
    const gaveUp = terminal || attempts >= this.maxAttempts();
    this.#failing.set(key, { job, pointer, attempts, lastError: error, gaveUp, terminal });
    return gaveUp;
  }

  /** Forgets the failures of a key, keeping its backoff (a rate-limited requeue grows it). */
  forgetFailure(key: string): void {
    if (this.#failing.size > 0) this.#failing.delete(key);
  }

  /** Forgets the key: its failures and its backoff. */
  succeeded(key: string): void {
    if (this.#backoffs.size > 0) this.#backoffs.delete(key);
    if (this.#failing.size > 0) this.#failing.delete(key);
  }
}
