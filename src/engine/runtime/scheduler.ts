/**
 * Runs controller wakeups one per macrotask, in the order they were asked for.
 *
 * A whole-world controller's pass over an in-memory state is all microtasks, so running each
 * wakeup in its own `setImmediate` lets one pass finish before the next controller looks at the
 * world: a downstream controller sees the whole batch instead of waking once per write. Holding
 * wakeups while paused is how a convergence run that hit a bound stops the engine.
 */
export class WakeupScheduler {
  readonly #queue: (() => void)[] = [];
  #head = 0;
  #scheduled = false;
  #paused = false;

  /** Wakeups waiting to run. */
  get pending(): number {
    return this.#queue.length - this.#head;
  }

  get paused(): boolean {
    return this.#paused;
  }

  schedule(task: () => void): void {
    this.#queue.push(task);
    this.#arm();
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#arm();
  }

  /** Drops every waiting wakeup (on stop). */
  clear(): void {
    this.#queue.length = 0;
    this.#head = 0;
  }

  #arm(): void {
    if (this.#scheduled || this.#paused || this.pending === 0) return;
    this.#scheduled = true;
    setImmediate(this.#runOne);
  }

  readonly #runOne = (): void => {
    this.#scheduled = false;
    if (this.#paused) return;
    const task = this.#queue[this.#head];
    if (task) {
      this.#queue[this.#head++] = undefined as unknown as () => void;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      task();
    }
    this.#arm();
  };
}
