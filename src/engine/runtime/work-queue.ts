import { compareStrings } from '../compare-strings.js';
import type { Clock, Timer } from './clock.js';

interface Entry<T> {
  item: T;
  /** Set while the entry waits for its release time. */
  timer: Timer | undefined;
  releaseAt: number;
}

interface Deferred<T> {
  item: T;
  delay: number;
}

/**
 * A deduplicating work queue keyed by string.
 *
 * - A key is queued at most once; adding it again keeps the latest item and the earlier release.
 * - A key taken and not yet `done` is never handed out twice: adding it meanwhile defers the add
 *   until `done`, so it runs once more afterwards.
 * - Ready keys come out in the order they became ready, so a run is deterministic.
 */
export class WorkQueue<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #ready: string[] = [];
  #readyHead = 0;
  #readyCount = 0;
  readonly #inFlight = new Map<string, Deferred<T> | undefined>();

  /**
   * @param clock times delayed adds.
   * @param onReady called when a delayed key becomes ready.
   */
  constructor(
    private readonly clock: Clock,
    private readonly onReady: () => void,
  ) {}

  /** Keys queued (ready or delayed). */
  get size(): number {
    return this.#entries.size;
  }

  /** The items waiting for their release time (requeued with a delay), in key order. */
  delayedItems(): T[] {
    return [...this.#entries]
      .filter(([, entry]) => entry.timer !== undefined)
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([, entry]) => entry.item);
  }

  /** When a key waiting for its release time is released (clock ms); else `undefined`. */
  releaseAt(key: string): number | undefined {
    const entry = this.#entries.get(key);
    return entry?.timer !== undefined ? entry.releaseAt : undefined;
  }

  /** Keys ready to be taken now. */
  get readyCount(): number {
    return this.#readyCount;
  }

  add(key: string, item: T, delay = 0): void {
    if (this.#inFlight.has(key)) {
      const deferred = this.#inFlight.get(key);
      this.#inFlight.set(key, {
        item,
        delay: deferred ? Math.min(deferred.delay, delay) : delay,
      });
      return;
    }
    const releaseAt = this.clock.now() + delay;
    const existing = this.#entries.get(key);
    if (existing) {
      existing.item = item;
      if (existing.timer && releaseAt < existing.releaseAt) {
        existing.timer.cancel();
        this.#schedule(key, existing, delay, releaseAt);
      }
      return;
    }
    const entry: Entry<T> = { item, timer: undefined, releaseAt };
    this.#entries.set(key, entry);
    this.#schedule(key, entry, delay, releaseAt);
  }

  /** The next ready key and item, now in flight; `undefined` if none is ready. */
  take(): { key: string; item: T } | undefined {
    while (this.#readyHead < this.#ready.length) {
      const key = this.#ready[this.#readyHead++] as string;
      if (this.#readyHead > 1024 && this.#readyHead * 2 > this.#ready.length) {
        this.#ready.splice(0, this.#readyHead);
        this.#readyHead = 0;
      }
      const entry = this.#entries.get(key);
      if (!entry || entry.timer) continue;
      this.#entries.delete(key);
      this.#readyCount--;
      this.#inFlight.set(key, undefined);
      return { key, item: entry.item };
    }
    return undefined;
  }

  /** Marks a taken key finished; a deferred add of it is queued now. */
  done(key: string): void {
    const deferred = this.#inFlight.get(key);
    this.#inFlight.delete(key);
    if (deferred) this.add(key, deferred.item, deferred.delay);
  }

  /** Forgets every queued key and cancels their timers. */
  clear(): void {
    for (const entry of this.#entries.values()) entry.timer?.cancel();
    this.#entries.clear();
    this.#ready.length = 0;
    this.#readyHead = 0;
    this.#readyCount = 0;
  }

  #schedule(key: string, entry: Entry<T>, delay: number, releaseAt: number): void {
    entry.releaseAt = releaseAt;
    if (delay <= 0) {
      entry.timer = undefined;
      this.#ready.push(key);
      this.#readyCount++;
      return;
    }
    entry.timer = this.clock.setTimer(delay, () => {
      entry.timer = undefined;
      this.#ready.push(key);
      this.#readyCount++;
      this.onReady();
    });
  }
}
