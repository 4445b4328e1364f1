/**
 * Runs controller wakeups one per macrotask, in the order they were asked for.
 *
 * A whole-world controller's pass over an in-memory state is all microtasks, so running each
 * wakeup in its own `setImmediate` lets one pass finish before the next controller looks at the
 * world: a downstream controller sees the whole batch instead of waking once per write. Holding
 * wakeups while paused is how a convergence run that hit a bound stops the engine.
 *
 * Over a state behind I/O (etcd) an upstream pass is still under way when the next macrotask
 * comes: a wakeup whose controller the gate (see {@link setGate}) says must wait is held, out of
 * the queue, until {@link release} finds the condition the gate gave for it met, or for at most
 * `holdLimitMs` of wall time (a last resort against an upstream reconcile that never ends).
 */
export class WakeupScheduler {
  readonly #queue: Wakeup[] = [];
  #head = 0;
  #scheduled = false;
  #paused = false;
  /** Wakeups the gate held, in the order they were held. */
  #held: Wakeup[] = [];
  #gate: WakeupGate | undefined;
  /** Wakeups released from {@link #held} and back in the queue: {@link isWaiting}'s fast path. */
  #released = 0;
  #holdTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly holdLimitMs = DEFAULT_HOLD_LIMIT_MS) {}

  /** Wakeups waiting to run (not the held ones: they wait on another controller). */
  get pending(): number {
    return this.#queue.length - this.#head;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /**
   * Whether a wakeup of `owner` is held, or was held and waits its turn to run: its controller
   * has work that waits on another's.
   */
  isWaiting(owner: string): boolean {
    // The usual case, nothing held: no scan of the queue on every wakeup.
    if (this.#held.length === 0 && this.#released === 0) return false;
    if (this.#held.some((w) => w.owner === owner)) return true;
    for (let i = this.#head; i < this.#queue.length; i++) {
      const wakeup = this.#queue[i];
      if (wakeup?.owner === owner && wakeup.heldAt !== undefined) return true;
    }
    return false;
  }

  /** Says, when a wakeup of `owner` comes up, whether it must wait, and for what. */
  setGate(gate: WakeupGate): void {
    this.#gate = gate;
  }

  /** Queues `task`; `owner` names the controller it wakes, for the gate. */
  schedule(task: () => void, owner?: string): void {
    this.#queue.push({ task, owner, heldAt: undefined, mayRun: undefined, waited: undefined });
    this.#arm();
  }

  /** Requeues the held wakeups the gate now lets through (at the back, in the order held). */
  release(): void {
    if (this.#held.length === 0) return;
    const now = Date.now();
    const still: Wakeup[] = [];
    for (const wakeup of this.#held) {
      const expired = now - (wakeup.heldAt ?? now) >= this.holdLimitMs;
      if (expired || wakeup.mayRun === undefined || wakeup.mayRun()) {
        wakeup.mayRun = undefined;
        this.#queue.push(wakeup);
        this.#released++;
      } else {
        still.push(wakeup);
      }
    }
    this.#held = still;
    if (still.length === 0 && this.#holdTimer !== undefined) {
      clearTimeout(this.#holdTimer);
      this.#holdTimer = undefined;
    }
    this.#arm();
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#arm();
  }

  /** Drops every waiting wakeup, held ones too (on stop). */
  clear(): void {
    this.#queue.length = 0;
    this.#head = 0;
    this.#held = [];
    this.#released = 0;
    if (this.#holdTimer !== undefined) clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
  }

  #arm(): void {
    if (this.#scheduled || this.#paused || this.pending === 0) return;
    this.#scheduled = true;
    setImmediate(this.#runOne);
  }

  readonly #runOne = (): void => {
    this.#scheduled = false;
    if (this.#paused) return;
    const wakeup = this.#queue[this.#head];
    if (wakeup) {
      this.#queue[this.#head++] = undefined as unknown as Wakeup;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      if (wakeup.heldAt !== undefined) this.#released--;
      if (this.#mustWait(wakeup)) this.#hold(wakeup);
      else wakeup.task();
    }
    this.#arm();
  };

  /**
   * Asks the gate each time a wakeup comes up, telling it whom the wakeup already waited for:
   * each is waited for once, so a wakeup is held at most once per controller upstream of it.
   */
  #mustWait(wakeup: Wakeup): boolean {
    if (wakeup.owner === undefined || this.#gate === undefined) return false;
    if (wakeup.heldAt !== undefined && Date.now() - wakeup.heldAt >= this.holdLimitMs) return false;
    const wait = this.#gate(wakeup.owner, wakeup.waited ?? NONE);
    if (wait === undefined) return false;
    wakeup.mayRun = wait.until;
    wakeup.waited = new Set([...(wakeup.waited ?? []), ...wait.on]);
    return true;
  }

  #hold(wakeup: Wakeup): void {
    wakeup.heldAt ??= Date.now();
    this.#held.push(wakeup);
    if (this.#holdTimer === undefined) this.#armHoldTimer();
  }

  /** The limit is kept even when no controller ends its work meanwhile. */
  #armHoldTimer(): void {
    const now = Date.now();
    const oldest = Math.min(...this.#held.map((w) => w.heldAt ?? now));
    this.#holdTimer = setTimeout(
      () => {
        this.#holdTimer = undefined;
        this.release();
        if (this.#held.length > 0) this.#armHoldTimer();
      },
      Math.max(1, oldest + this.holdLimitMs - now),
    );
    this.#holdTimer.unref();
  }
}

/** Wall ms a wakeup waits at most for the controllers upstream of it. */
export const DEFAULT_HOLD_LIMIT_MS = 60_000;

/**
 * Given the controller a wakeup is for and the controllers it already waited for: `undefined`
 * when it may run now, else what it waits for (`on`, never one it waited for already) and the
 * condition that says when it may run ({@link WakeupScheduler.release} asks it again).
 */
export type WakeupGate = (
  owner: string,
  waited: ReadonlySet<string>,
) => { readonly on: readonly string[]; readonly until: () => boolean } | undefined;

const NONE: ReadonlySet<string> = new Set();

interface Wakeup {
  readonly task: () => void;
  readonly owner: string | undefined;
  /** Wall ms it was held at. */
  heldAt: number | undefined;
  /** While held: what it waits for. */
  mayRun: (() => boolean) | undefined;
  /** The controllers it waited for so far. */
  waited: ReadonlySet<string> | undefined;
}
