/**
 * Gives the terminal back however the process ends, not only on `q` and Ctrl-C: on SIGTERM and
 * SIGHUP, on an uncaught error (before its stack is printed, so it lands on the shell's screen)
 * and at exit. A full-screen view that is killed would otherwise leave the shell on the alternate
 * screen with the cursor hidden.
 */

/** Signals that end a full-screen view: they restore the terminal, then end the process as before. */
const ENDING_SIGNALS = ['SIGTERM', 'SIGHUP'] as const;

/**
 * Calls `restore` (synchronous, at most once) when the process is ended by a signal, an uncaught
 * error or exit. A signal is raised again once the terminal is restored, so the process ends as
 * the signal ends it. Returns the release, for a view that closed normally.
 */
export function guardTerminal(restore: () => void): () => void {
  let restored = false;
  const restoreOnce = (): void => {
    if (restored) return;
    restored = true;
    restore();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    restoreOnce();
    release();
    // Without this listener the signal's default (or another listener's) ending applies.
    process.kill(process.pid, signal);
  };
  const release = (): void => {
    for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
    process.off('uncaughtExceptionMonitor', restoreOnce);
    process.off('exit', restoreOnce);
  };
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  process.on('uncaughtExceptionMonitor', restoreOnce);
  process.on('exit', restoreOnce);
  return release;
}
