/**
 * A way to wake a generic controller from outside the state (a timer, a callback, a test): COSI's
 * extra event channel of `transform.WithExtraEventChannel`. Every `send` asks each listening
 * controller for one more pass; the runtime merges it with any other pending wakeup.
 */
export interface EventChannel {
  /** Wakes every controller listening now. Nobody listening: dropped (a controller reconciles at start anyway). */
  send(): void;
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: () => void): () => void;
}

/**
 * Creates an {@link EventChannel}.
 *
 * @example
 * const tick = createEventChannel();
 * await runtime.register(createTransformController(settings, { extraEventChannel: tick }));
 * setInterval(() => tick.send(), 60_000); // re-read something outside the state every minute
 */
export function createEventChannel(): EventChannel {
  const listeners = new Set<() => void>();
  return {
    send() {
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      // A wrapper of its own, so that the same function subscribed twice is two listeners.
      const entry = (): void => listener();
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
  };
}
