/**
 * The main thread's share of a command that runs once in a worker: while the worker starts (a
 * Node start of its own), loads the project's config and then parses the manifests from the
 * first, the main thread, idle until the worker's output comes, parses them from the last and
 * gives the worker the parses (see `parse-sharing.ts`). The worker takes a file's parse only if
 * it reads the same text; it parses itself whatever is not there when it needs it, so nothing
 * here can change a run's outcome, only how soon it comes.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { shareParses, type ShareMessage } from './parse-sharing.js';
import { parseCommand } from './worker-run.js';

/** The main thread's sharing of a run's parses: the worker's end of the port, and a stop. */
export interface ParseShare {
  /** For the worker (transferred to it in the `preparse-port` message). */
  readonly port: MessagePort;
  /** Stops parsing (the run is over): the file under way is the last. */
  stop(): void;
}

/**
 * Starts sharing the parses of the manifests the command line `argv` names (none when it does
 * not parse) with the worker that gets {@link ParseShare.port}.
 */
export function shareCommandLineParses(argv: readonly string[], cwd: string): ParseShare {
  const { port1, port2 } = new MessageChannel();
  let stopped = false;
  const stop = (): void => {
    stopped = true;
  };
  // The worker gone (its end closed) stops the sharing too.
  port1.once('close', stop);
  const endpoint = {
    postMessage: (message: ShareMessage) => {
      if (!stopped) port1.postMessage(message);
    },
    on: (event: 'message', listener: (message: ShareMessage) => void) => port1.on(event, listener),
    close: () => {
      port1.close();
    },
    get stopped() {
      return stopped;
    },
  };
  void parseCommand(argv)
    .catch(() => undefined)
    .then((command) => shareParses(command, cwd, endpoint));
  return { port: port2, stop };
}
