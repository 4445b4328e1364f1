import { BufferOverrunError } from '../errors.js';
import type { Kind } from '../resource/pointer.js';
import type { EventHistory } from './event-history.js';
import type { AggregatedWatchListener, StateEvent, WatchListener } from './state.js';
import { afterListener, type Delivery } from './watch-delivery.js';
import { isThenable } from '../is-thenable.js';
import { runSoon } from '../run-soon.js';

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
 * **Inline.** A subscription with `inline` delivery that has nothing queued and no listener
 * running hands a change over at once, inside the write that made it: no queue slot, no
 * microtask. In a chain of controllers each output write is a burst of its own, and that turn of
 * the queue cost a few percent of the chain; and such a watch keeps up with any burst of
 * synchronous writes, where a queued one falls behind the history and must start over. Its
 * initial events and the replay of a tail still go through the queue, and so does every change
 * while they (or a promise the listener returned) are pending, so the order is kept. The state
 * hands a change a listener writes meanwhile out only after the one being handed out (see the
 * in-memory state's `#publish`).
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
  /**
   * The history position of the first change made after the watch began: a change before it
   * reaches the watch only through its replay (see {@link isLive}).
   */
  #liveFrom = 0;
  readonly #inline: boolean;
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
  ) {
    this.#inline = !delivery.aggregated && delivery.inline === true;
  }

  /** Makes the subscription read from `position` on; the initial events come next. */
  begin(position: number): void {
    this.#active = true;
    this.#readPos = position;
    this.#liveFrom = this.history.writePos;
    this.#schedule();
  }

  /**
   * Whether the change at `position` is one for the state to push as it is made: not one from
   * before the watch began. Such a change can still be on its way out when the watch begins
   * (written by a listener while another change was being handed out), and a watch that replays
   * the history has pushed it already.
   */
  isLive(position: number): boolean {
    return position >= this.#liveFrom;
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
      if (this.#inline) {
        this.#handNow(event, position);
        return;
      }
      this.#active = true;
      this.#readPos = position;
    }
    this.#enqueue(event, position);
    // Checked here too so that a stuck listener does not make the queue grow without bound.
    if (!this.#checkLag()) return;
    this.#schedule();
  }

  /** An idle inline watch: the listener has the change now, inside the write. */
  #handNow(event: StateEvent, position: number): void {
    const result = this.#call(this.delivery.listener as WatchListener, event);
    if (result === undefined) return;
    // A promise: what comes next waits for it in the queue, as after a queued event.
    this.#active = true;
    this.#advance(position);
    this.#await(result);
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
    afterListener(result, this.onListenerError, resume);
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
