/** Options of `CliIo.onInterrupt` and {@link onProcessInterrupt}. */
export interface InterruptOptions {
  /**
   * Whether `q` and Ctrl-C on the terminal interrupt too (default true). A view that reads the
   * keys itself (the watch screen) says false and handles them.
   */
  readonly keys?: boolean;
}

/**
 * Calls `handler` when the user asks the process to stop: SIGINT, and on a terminal `q` or Ctrl-C
 * (stdin in raw mode delivers Ctrl-C as a byte, not as a signal) unless `keys` is false. Returns
 * the unsubscribe, which also gives the terminal back.
 */
export function onProcessInterrupt(
  handler: () => void,
  options: InterruptOptions = {},
): () => void {
  const onSignal = (): void => handler();
  process.on('SIGINT', onSignal);
  const stdin = process.stdin;
  let releaseKeys = (): void => undefined;
  if (stdin.isTTY && options.keys !== false) {
    const onData = (data: Buffer): void => {
      const key = data.toString('utf8');
      if (key === 'q' || key === 'Q' || key === '\u0003') handler();
    };
    stdin.setRawMode(true);
    stdin.on('data', onData);
    stdin.resume();
    releaseKeys = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
    };
  }
  return () => {
    process.off('SIGINT', onSignal);
    releaseKeys();
  };
}
