import type { Clock, Timer } from './clock.js';
import type { QueueTiming } from './queue-metrics.js';

/** Where a key is: waiting (ready or delayed), or taken and not yet `done`. */
const QUEUED = 0;
const IN_FLIGHT = 1;
/** Taken, and added again meanwhile: queued again once `done`. */
const IN_FLIGHT_REQUEUED = 2;

/** A key taken from the queue and its item (see {@link WorkQueue.takeEntry}). */
export interface TakenEntry<T> {
  readonly key: string;
  readonly item: T;
}

/** A key's one record, from its first add until it is done with nothing deferred. */
interface Entry<T> {
  readonly key: string;
  item: T;
  state: typeof QUEUED | typeof IN_FLIGHT | typeof IN_FLIGHT_REQUEUED;
  /** Set while the entry waits for its release time. */
  timer: Timer | undefined;
  releaseAt: number;
  /** For {@link IN_FLIGHT_REQUEUED}: the shortest delay asked for meanwhile. */
  deferredDelay: number;
}

/**
 * A deduplicating work queue keyed by string.
 *
 * - A key is queued at most once; adding it again keeps the latest item and the earlier release.
 * - A key taken and not yet `done` is never handed out twice: adding it meanwhile defers the add
 *   until `done`, so it runs once more afterwards.
 * - Ready keys come out in the order they became ready, so a run is deterministic.
 *
 * Each key has one record for its whole stay, ready, delayed or in flight, and the ready keys are
 * a list of those records: an add, a take and a done cost two map operations between them (the
 * queue of a busy controller holds every item, so a lookup is a cache miss worth saving).
 */
export class WorkQueue<T> {
  readonly #entries = new Map<string, Entry<T>>();
  /** Entries in the order they became ready; those before `#readyHead` were taken. */
  readonly #ready: (Entry<T> | undefined)[] = [];
  #readyHead = 0;
  /** Entries queued (ready or delayed), not counting those in flight. */
  #queued = 0;

  /**
   * @param clock times delayed adds.
   * @param onReady called when a delayed key becomes ready.
   * @param timing told as each key becomes ready, is taken and is done (`cosi run`'s
   *   `workqueue_*` metrics); none by default, and then the queue measures nothing.
   */
  constructor(
    private readonly clock: Clock,
    private readonly onReady: () => void,
    private readonly timing?: QueueTiming,
  ) {}

  /** Keys queued (ready or delayed). */
  get size(): number {
    return this.#queued;
  }

  /** The items waiting for their release time (requeued with a delay), in the order added. */
  delayedItems(): T[] {
    const items: T[] = [];
    for (const entry of this.#entries.values()) {
      if (entry.state === QUEUED && entry.timer !== undefined) items.push(entry.item);
    }
    return items;
  }

  /** When a key waiting for its release time is released (clock ms); else `undefined`. */
  releaseAt(key: string): number | undefined {
    const entry = this.#entries.get(key);
    return entry?.state === QUEUED && entry.timer !== undefined ? entry.releaseAt : undefined;
  }

  /** Keys ready to be taken now. */
  get readyCount(): number {
    return this.#ready.length - this.#readyHead;
  }

  add(key: string, item: T, delay = 0): void {
    const existing = this.#entries.get(key);
    if (existing === undefined) {
      const entry: Entry<T> = {
        key,
        item,
        state: QUEUED,
        timer: undefined,
        releaseAt: 0,
        deferredDelay: 0,
      };
      this.#entries.set(key, entry);
      this.#queued++;
      this.#schedule(entry, delay);
      return;
    }
    existing.item = item;
    if (existing.state === IN_FLIGHT) {
      existing.state = IN_FLIGHT_REQUEUED;
      existing.deferredDelay = delay;
    } else if (existing.state === IN_FLIGHT_REQUEUED) {
      existing.deferredDelay = Math.min(existing.deferredDelay, delay);
    } else if (existing.timer !== undefined && this.clock.now() + delay < existing.releaseAt) {
      existing.timer.cancel();
      this.#schedule(existing, delay);
    }
  }

  /** The next ready key and item, now in flight; `undefined` if none is ready. */
  take(): { key: string; item: T } | undefined {
    const taken = this.takeEntry();
    return taken && { key: taken.key, item: taken.item };
  }

  /**
   * {@link take} without a new object: the key's own record, read-only. Read its item at once:
   * an add while the key is in flight replaces it (with the item that runs after `done`).
   */
  takeEntry(): TakenEntry<T> | undefined {
    const ready = this.#ready;
    if (this.#readyHead >= ready.length) return undefined;
    const entry = ready[this.#readyHead] as Entry<T>;
    ready[this.#readyHead++] = undefined;
    if (this.#readyHead === ready.length) {
      ready.length = 0;
      this.#readyHead = 0;
    } else if (this.#readyHead > 1024 && this.#readyHead * 2 > ready.length) {
      ready.splice(0, this.#readyHead);
      this.#readyHead = 0;
    }
    entry.state = IN_FLIGHT;
    this.#queued--;
    this.timing?.taken(entry);
    return entry;
  }

  /** Marks a taken key finished; a deferred add of it is queued now. */
  done(key: string): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined) this.doneEntry(entry);
  }

  /**
   * {@link done} with the record {@link takeEntry} handed out, which saves looking the key up (a
   * cache miss in the queue of a busy controller). The record stays the key's until it is done:
   * only a queued key is ever dropped (by {@link clear}).
   */
  doneEntry(taken: TakenEntry<T>): void {
    const entry = taken as Entry<T>;
    if (entry.state === QUEUED) return;
    this.timing?.done(entry);
    if (entry.state === IN_FLIGHT) {
      this.#entries.delete(entry.key);
      return;
    }
    entry.state = QUEUED;
    this.#queued++;
    this.#schedule(entry, entry.deferredDelay);
  }

  /** Forgets every queued key and cancels their timers; keys in flight still end with `done`. */
  clear(): void {
    for (const [key, entry] of this.#entries) {
      if (entry.state !== QUEUED) continue;
      entry.timer?.cancel();
      this.#entries.delete(key);
    }
    this.#ready.length = 0;
    this.#readyHead = 0;
    this.#queued = 0;
    this.timing?.cleared();
  }

  #schedule(entry: Entry<T>, delay: number): void {
    if (delay <= 0) {
      // Its release time is read only while a timer holds it: not set here, where none does.
      entry.timer = undefined;
      this.#ready.push(entry);
      this.timing?.ready(entry);
      return;
    }
    entry.releaseAt = this.clock.now() + delay;
    entry.timer = this.clock.setTimer(delay, () => {
      entry.timer = undefined;
      this.#ready.push(entry);
      this.timing?.ready(entry);
      this.onReady();
    });
  }
}
