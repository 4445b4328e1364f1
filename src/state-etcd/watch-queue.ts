import { BufferOverrunError } from '../engine/errors.js';
import type { Kind } from '../engine/resource/pointer.js';
import type { StateEvent } from '../engine/state/state.js';
import { afterListener, type Delivery } from '../engine/state/watch-delivery.js';
import { isThenable } from '../engine/is-thenable.js';

/**
 * The events of one watch on their way to its listener: queued, then handed over in order,
 * asynchronously (on the next turn of the event loop, so that what arrived together is handed
 * over together), waiting for a listener's promise before the next
 * event (or, aggregated, handing over everything that piled up as one batch). A listener that
 * throws or rejects is reported and the watch goes on.
 *
 * Events arrive from etcd whether or not the listener keeps up, so the queue is bounded: once
 * more than `capacity` changes wait, they are dropped and the watch ends with `errored` (a
 * {@link BufferOverrunError}), as an in-memory watcher that falls behind its history does. The
 * initial events of a watch (a bootstrap of any size, a replay) do not count, as they do not in
 * memory.
 */
export class WatchQueue {
  #events: StateEvent[] = [];
  #head = 0;
  /** The initial events sit at the front of the queue, up to this index. */
  #initialEnd = 0;
  #scheduled = false;
  #busy = false;
  #ending = false;
  closed = false;

  constructor(
    readonly kind: Kind,
    readonly delivery: Delivery,
    readonly capacity: number,
    readonly onListenerError: (error: unknown) => void,
    /** Called once when the watch ends, by its signal or by `errored`. */
    readonly onEnd: () => void,
  ) {}

  /** Closed, or ending with `errored`: nothing more will be queued. */
  get ended(): boolean {
    return this.closed || this.#ending;
  }

  /** Queues an initial event (before any change): the current state, a bootstrap, a replay. */
  pushInitial(event: StateEvent): void {
    if (this.closed || this.#ending) return;
    this.#events.push(event);
    this.#initialEnd = this.#events.length;
    this.#schedule();
  }

  /** Queues a change; ends the watch with `errored` when too many wait. */
  push(event: StateEvent): void {
    if (this.closed || this.#ending) return;
    this.#events.push(event);
    const waiting = this.#events.length - Math.max(this.#head, this.#initialEnd);
    if (waiting > this.capacity) {
      this.fail(new BufferOverrunError(this.kind, waiting, this.capacity));
      return;
    }
    this.#schedule();
  }

  /** Drops what waits and ends the watch with `errored` carrying `error`. */
  fail(error: Error): void {
    if (this.closed || this.#ending) return;
    this.#ending = true;
    this.#events = [{ type: 'errored', error }];
    this.#head = 0;
    this.#initialEnd = 0;
    this.onEnd();
    this.#schedule();
  }

  /** Ends the watch (its signal was aborted): nothing more is delivered. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#events = [];
    this.#head = 0;
    this.#initialEnd = 0;
    if (!this.#ending) this.onEnd();
  }

  #schedule(): void {
    if (this.#scheduled || this.#busy) return;
    this.#scheduled = true;
    // The next turn of the event loop, not a microtask: the changes of every watch response
    // read from the socket in this turn are then handed over together (one batch to an
    // aggregated listener, one burst to the runtime, whose queues fold it), not one by one.
    setImmediate(this.#pump);
  }

  readonly #pump = (): void => {
    this.#scheduled = false;
    while (!this.closed && !this.#busy && this.#head < this.#events.length) {
      let result: unknown;
      try {
        if (this.delivery.aggregated) {
          const batch = this.#events.slice(this.#head);
          this.#head = this.#events.length;
          result = this.delivery.listener(batch);
        } else {
          const event = this.#events[this.#head++] as StateEvent;
          result = this.delivery.listener(event);
        }
      } catch (error) {
        this.onListenerError(error);
      }
      if (this.#head >= this.#events.length) {
        this.#events = [];
        this.#head = 0;
        this.#initialEnd = 0;
        if (this.#ending) this.closed = true;
      }
      if (isThenable(result)) this.#await(result);
    }
  };

  #await(result: PromiseLike<unknown>): void {
    this.#busy = true;
    const resume = (): void => {
      this.#busy = false;
      if (!this.closed) this.#pump();
    };
    afterListener(result, this.onListenerError, resume);
  }
}
