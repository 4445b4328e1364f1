/** A cancellable timer. */
export interface Timer {
  cancel(): void;
}

/**
 * Time, injected: everything timed in the runtime (backoffs, requeues) goes through a clock, so a
 * simulated one can make a run reproducible and free of wall time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once, `ms` from now. */
  setTimer(ms: number, fn: () => void): Timer;
  /**
   * Only on a clock that knows all its timers (a simulated one): the time of the earliest pending
   * timer, if any. Without it the runtime tracks the timers it set itself.
   */
  nextTimerAt?(): number | undefined;
  /**
   * Only on a virtual clock, whose time moves when told to (a simulated one): moves time forward to
   * `time`, firing every timer that falls due. Without it time passes by itself, and the runtime
   * waits for it.
   */
  advanceTo?(time: number): void;
  /**
   * Only on a clock that knows all its timers (a simulated one): how many are pending. The
   * convergence loop compares it with the timers no running code waits for (`OutsideWait`).
   */
  pendingTimers?(): number;
}

/**
 * The longest delay `setTimeout` takes: past it Node fires after 1 ms (a `TimeoutOverflowWarning`),
 * so a controller's `requeueAfter` of 30 days came back at once, for ever.
 */
const MAX_TIMEOUT = 2 ** 31 - 1;

/** The wall clock, on `Date.now` and `setTimeout`. */
export class RealClock implements Clock {
  now(): number {
    return Date.now();
  }

  /** A delay longer than `setTimeout` takes waits in steps, each at most its limit. */
  setTimer(ms: number, fn: () => void): Timer {
    const delay = Math.max(0, ms);
    if (!(delay > MAX_TIMEOUT)) {
      const handle = setTimeout(fn, delay);
      return { cancel: () => clearTimeout(handle) };
    }
    const due = Date.now() + delay;
    let handle: ReturnType<typeof setTimeout>;
    const wait = (): void => {
      const left = due - Date.now();
      handle = left > MAX_TIMEOUT ? setTimeout(wait, MAX_TIMEOUT) : setTimeout(fn, left);
    };
    wait();
    return { cancel: () => clearTimeout(handle) };
  }
}

interface PendingTimer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
  fired: boolean;
}

/** Midnight UTC, 1 January 2025: where simulated time starts unless told otherwise. */
export const SIMULATED_EPOCH = Date.UTC(2025, 0, 1);

/**
 * A clock that only moves when told to. `advanceToNext()` jumps to the earliest timer and fires
 * every timer due then, in the order they were set; the runtime's convergence loop calls it when
 * nothing else can run.
 */
export class SimulatedClock implements Clock {
  #now: number;
  #seq = 0;
  /** A binary min-heap ordered by (at, seq). */
  readonly #heap: PendingTimer[] = [];
  /** Timers set and neither fired nor cancelled. */
  #pending = 0;

  constructor(start: number = SIMULATED_EPOCH) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** A delay that is not a number (`NaN`) is taken as 0, as `setTimeout` takes it. */
  setTimer(ms: number, fn: () => void): Timer {
    const timer: PendingTimer = {
      at: this.#now + (ms > 0 ? ms : 0),
      seq: this.#seq++,
      fn,
      cancelled: false,
      fired: false,
    };
    this.#push(timer);
    this.#pending++;
    return {
      cancel: () => {
        if (!timer.cancelled && !timer.fired) this.#pending--;
        timer.cancelled = true;
      },
    };
  }

  /** The time of the earliest pending timer, if any. */
  nextTimerAt(): number | undefined {
    this.#dropCancelled();
    return this.#heap[0]?.at;
  }

  /** Number of pending (not cancelled) timers. */
  pendingTimers(): number {
    return this.#pending;
  }

  /** Jumps to the earliest timer and fires all timers due at that time. False if there is none. */
  advanceToNext(): boolean {
    const at = this.nextTimerAt();
    if (at === undefined) return false;
    this.advanceTo(at);
    return true;
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    this.advanceTo(this.#now + ms);
  }

  /** @throws RangeError when `time` is `NaN`: the clock would never be a number again. */
  advanceTo(time: number): void {
    if (Number.isNaN(time)) throw new RangeError('SimulatedClock: cannot advance to NaN');
    for (;;) {
      this.#dropCancelled();
      const top = this.#heap[0];
      if (!top || top.at > time) break;
      this.#pop();
      this.#now = Math.max(this.#now, top.at);
      top.fired = true;
      this.#pending--;
      top.fn();
    }
    this.#now = Math.max(this.#now, time);
  }

  #dropCancelled(): void {
    while (this.#heap[0]?.cancelled) this.#pop();
  }

  #push(timer: PendingTimer): void {
    const heap = this.#heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as PendingTimer, heap[parent] as PendingTimer)) break;
      [heap[i], heap[parent]] = [heap[parent] as PendingTimer, heap[i] as PendingTimer];
      i = parent;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < heap.length && before(heap[l] as PendingTimer, heap[smallest] as PendingTimer))
        smallest = l;
      if (r < heap.length && before(heap[r] as PendingTimer, heap[smallest] as PendingTimer))
        smallest = r;
      if (smallest === i) break;
      [heap[i], heap[smallest]] = [heap[smallest] as PendingTimer, heap[i] as PendingTimer];
      i = smallest;
    }
  }
}

function before(a: PendingTimer, b: PendingTimer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
