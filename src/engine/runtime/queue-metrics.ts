/**
 * What a controller's queue tells when its measures are asked for (`RuntimeOptions.queueMetrics`):
 * the events client-go's work queue measures for controller-runtime's `workqueue_*` metrics, as
 * they happen. Wall time, in seconds.
 */
export interface QueueMetricsSink {
  /** An item joined `controller`'s queue, ready to be taken (one already waiting in it is not). */
  added(controller: string): void;
  /** A worker took an item that had waited `seconds`, ready, since it was added. */
  taken(controller: string, seconds: number): void;
  /** A worker finished an item after working on it for `seconds`. */
  done(controller: string, seconds: number): void;
}

/** The work a controller has under way and waiting now, read when the metrics are scraped. */
export interface QueueWorkload {
  /** Items ready to be taken (a whole-world controller: 1 while a pass is owed). */
  readonly depth: number;
  /** Workers working on an item now. */
  readonly activeWorkers: number;
  /** Workers it runs at most (its `concurrency`; 1 for a whole-world controller). */
  readonly maxWorkers: number;
  /** Seconds of work under way and not done yet, summed over the workers. */
  readonly unfinishedSeconds: number;
  /** Seconds the longest-running item under way has been worked on. */
  readonly longestSeconds: number;
}

/**
 * One queue's timing: when each item became ready and when a worker took it, told to a
 * {@link QueueMetricsSink}. An item is any object that stays the same from its add until it is
 * done (a work queue's record of a key; a whole-world controller's owed pass). Made only when
 * the measures are asked for: without it a queue measures nothing.
 */
export class QueueTiming {
  /** Items ready, by when they became so (`performance.now()`). */
  readonly #ready = new Map<object, number>();
  /** Items being worked on, by when they were taken. */
  readonly #working = new Map<object, number>();

  constructor(
    private readonly controller: string,
    private readonly sink: QueueMetricsSink,
  ) {}

  /** `item` joined the ready items. */
  ready(item: object): void {
    if (this.#ready.has(item)) return;
    this.#ready.set(item, performance.now());
    this.sink.added(this.controller);
  }

  /** A worker took `item`. */
  taken(item: object): void {
    const now = performance.now();
    const since = this.#ready.get(item);
    if (since !== undefined) {
      this.#ready.delete(item);
      this.sink.taken(this.controller, (now - since) / 1000);
    }
    this.#working.set(item, now);
  }

  /** The worker on `item` is done with it. */
  done(item: object): void {
    const since = this.#working.get(item);
    if (since === undefined) return;
    this.#working.delete(item);
    this.sink.done(this.controller, (performance.now() - since) / 1000);
  }

  /** The ready items were dropped (the queue stopped): they are no longer waiting. */
  cleared(): void {
    this.#ready.clear();
  }

  /** Items ready now. */
  get depth(): number {
    return this.#ready.size;
  }

  /** The work under way now: workers busy, seconds worked so far in all and by the longest. */
  underway(): {
    readonly active: number;
    readonly unfinishedSeconds: number;
    readonly longestSeconds: number;
  } {
    const now = performance.now();
    let unfinished = 0;
    let longest = 0;
    for (const since of this.#working.values()) {
      const ms = now - since;
      unfinished += ms;
      if (ms > longest) longest = ms;
    }
    return {
      active: this.#working.size,
      unfinishedSeconds: unfinished / 1000,
      longestSeconds: longest / 1000,
    };
  }
}
