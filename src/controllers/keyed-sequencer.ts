/**
 * Runs tasks that share a key one after another, in the order they were asked for, while tasks
 * of different keys run at once: so a controller that keeps many writes in flight still writes
 * each resource in order.
 *
 * @example
 * const order = new KeyedSequencer();
 * await Promise.all(inputs.map((i) => order.run(outputKeyOf(i), () => write(i))));
 */
export class KeyedSequencer {
  /** Per key, the promise that settles when the last task asked for under it is done. */
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key);
    let done: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.#tails.set(key, mine);
    try {
      if (before !== undefined) await before;
      return await task();
    } finally {
      done();
      if (this.#tails.get(key) === mine) this.#tails.delete(key);
    }
  }
}
