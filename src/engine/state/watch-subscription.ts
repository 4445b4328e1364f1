import { BufferOverrunError } from '../errors.js';
import type { Kind } from '../resource/pointer.js';
import type { EventHistory } from './event-history.js';
import type { AggregatedWatchListener, StateEvent, WatchListener } from './state.js';
import { isThenable } from '../is-thenable.js';
import { runSoon } from '../run-soon.js';

/** How a subscription hands its events over: one by one, or in batches. */
export type Delivery =
  | { readonly aggregated: false; readonly listener: WatchListener }
  | { readonly aggregated: true; readonly listener: AggregatedWatchListener };

/** The most queue slots a subscription keeps between bursts. */
const KEPT_QUEUE_SLOTS = 64;

/** Marks the events of a watch that are not changes from the history (initial state, markers). */
const NO_POSITION = -1;

/**
 * One watcher of the in-memory state. Events are queued with their history position and handed
 * to the listener in order, asynchronously: in one microtask per burst, and, when the listener
 * returns a promise, only once it settles. A listener that throws (or rejects) is reported and
 * the watch goes on.
 *
 * **Lag.** While the subscription has work (queued events or a listener still running) it
 * remembers the next history position it has not read. Once the history has moved more than its
 * capacity beyond that point, events the watcher never saw are gone: the queue is dropped and the
 * watch ends with an `errored` event, as a COSI reader that falls behind its ring buffer does.
 * An idle subscription has read everything, so a quiet watcher never overruns.
 */
export class WatchSubscription {
  // A queue reused from burst to burst: `#count` slots in use, `#head` the next to deliver.
  // Emptying the arrays (`length = 0`) after every burst threw their storage away, and in a chain
  // of controllers nearly every event is a burst of its own.
  readonly #events: (StateEvent | undefined)[] = [];
  readonly #positions: number[] = [];
  #count = 0;
  #head = 0;
  #scheduled = false;
  /** Waiting for a listener's promise. */
  #busy = false;
  /** Has queued events or a running listener; only then is {@link #readPos} meaningful. */
  #active = false;
  #readPos = 0;
  /** Overrun: only the `errored` event is left to deliver. */
  #ending = false;
  closed = false;

  constructor(
    readonly kind: Kind,
    readonly history: EventHistory,
    readonly delivery: Delivery,
    readonly onListenerError: (error: unknown) => void,
    /** Takes the subscription out of the state's registry. */
    readonly unregister: (sub: WatchSubscription) => void,
  ) {}

  /** Makes the subscription read from `position` on; the initial events come next. */
  begin(position: number): void {
    this.#active = true;
    this.#readPos = position;
    this.#schedule();
  }

  /** An event that is not a change from the history: the initial state, bootstrap, markers. */
  pushInitial(event: StateEvent): void {
    this.push(event, NO_POSITION);
  }

  /** Queues an event; `position` is its place in the history (or {@link NO_POSITION}). */
  push(event: StateEvent, position: number): void {
    if (this.closed || this.#ending) return;
    if (!this.#active) {
      // Idle means caught up: everything before this change has been read (or did not match).
      this.#active = true;
      this.#readPos = position;
    }
    this.#enqueue(event, position);
    // Checked here too so that a stuck listener does not make the queue grow without bound.
    if (!this.#checkLag()) return;
    this.#schedule();
  }

  /** Ends the watch (its signal was aborted): nothing more is delivered. */
  close(): void {
    this.closed = true;
    this.#clear();
    this.unregister(this);
  }

  #schedule(): void {
    if (this.#scheduled || this.#busy) return;
    this.#scheduled = true;
    runSoon(this.#pump);
  }

  /** False, after ending the watch with `errored`, when the watcher has fallen too far behind. */
  #checkLag(): boolean {
    if (this.#ending) return true;
    const lag = this.history.lag(this.#readPos);
    if (lag <= this.history.capacity) return true;
    this.#ending = true;
    this.unregister(this);
    this.#clear();
    this.#enqueue(
      { type: 'errored', error: new BufferOverrunError(this.kind, lag, this.history.capacity) },
      NO_POSITION,
    );
    this.#schedule();
    return false;
  }

  readonly #pump = (): void => {
    this.#scheduled = false;
    // Events queued while delivering are delivered in this same pass, in order.
    while (!this.closed && !this.#busy) {
      if (this.#head >= this.#count) {
        // Drained: read the changes that did not concern this watcher while it was busy.
        if (!this.#checkLag()) continue;
        this.#clear();
        this.#active = false;
        return;
      }
      if (!this.#checkLag()) continue;
      const result = this.delivery.aggregated ? this.#handBatch() : this.#handOne();
      if (this.#head >= this.#count && this.#ending) this.#finish();
      if (result !== undefined) this.#await(result);
    }
  };

  #handOne(): PromiseLike<unknown> | undefined {
    const event = this.#events[this.#head] as StateEvent;
    this.#advance(this.#positions[this.#head] as number);
    this.#head++;
    return this.#call(this.delivery.listener as WatchListener, event);
  }

  #handBatch(): PromiseLike<unknown> | undefined {
    const batch = this.#events.slice(this.#head, this.#count) as StateEvent[];
    for (let i = this.#head; i < this.#count; i++) {
      this.#advance(this.#positions[i] as number);
    }
    this.#head = this.#count;
    return this.#call(this.delivery.listener as AggregatedWatchListener, batch);
  }

  #advance(position: number): void {
    if (position !== NO_POSITION) this.#readPos = position + 1;
  }

  /**
   * Runs the listener on what it is handed (no closure made per event); a promise it returns is
   * what the next delivery waits for.
   */
  #call<T>(listener: (delivered: T) => unknown, delivered: T): PromiseLike<unknown> | undefined {
    try {
      const result = listener(delivered);
      return isThenable(result) ? result : undefined;
    } catch (error) {
      this.onListenerError(error);
      return undefined;
    }
  }

  #await(result: PromiseLike<unknown>): void {
    this.#busy = true;
    const resume = (): void => {
      this.#busy = false;
      if (!this.closed) this.#pump();
    };
    result.then(resume, (error: unknown) => {
      this.onListenerError(error);
      resume();
    });
  }

  /** After `errored`: the watch is over. */
  #finish(): void {
    this.closed = true;
    this.#clear();
  }

  #enqueue(event: StateEvent, position: number): void {
    this.#events[this.#count] = event;
    this.#positions[this.#count] = position;
    this.#count++;
  }

  #clear(): void {
    if (this.#count > KEPT_QUEUE_SLOTS) {
      // After a large burst the storage goes: a quiet watcher does not hold it.
      this.#events.length = 0;
      this.#positions.length = 0;
    } else {
      // Delivered events are not kept alive by the slots they leave. A loop, not `fill`: that is
      // a call into the runtime, and most bursts are one event.
      for (let i = 0; i < this.#count; i++) this.#events[i] = undefined;
    }
    this.#count = 0;
    this.#head = 0;
  }
}
