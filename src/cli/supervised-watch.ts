import { describeWorkerFault, type WorkerFault } from '../app/worker-fault.js';
import type { RoundStart } from '../app/watch-session.js';
import { EXIT } from './exit-codes.js';
import { escapeControlLines } from './render/escape-control.js';
import { describeTrigger } from './ui/round-text.js';
import { continuedRound, type WatchContinuation } from './watch/continued-round.js';
import type { CliIo } from './io.js';
import { runWorkerOnce, type ParsedCommand, type WorkerRun } from './worker-run.js';
import { nextChangeIn, startingRoots } from './watch/next-change.js';

/** How long an interrupted worker may take to close its session before it is terminated. */
const CLOSE_GRACE_MS = 2000;

/**
 * `cosi watch` with its session in a worker thread (the line stream and `-o json`; the screen
 * stays on the main thread with ink and the terminal). One worker lives as long as the session.
 * When the project's code stops it (a loop that never yields past `--timeout`, the heap run out,
 * an exit), the fault is shown as the round's outcome and the watch goes on: the files the
 * session watched are watched from here, and the first change starts a new session in a new
 * worker, whose rounds are numbered on from the one the fault stopped, so fixing the controller's loop in an editor is
 * picked up as any other edit. Ctrl-C, `q`, SIGINT or SIGTERM ends the session, stuck or not.
 * `get -w` runs here too, with its own {@link WatchSupervision}.
 */
export async function superviseWatch(
  argv: readonly string[],
  io: CliIo,
  parsed: ParsedCommand,
  supervision: WatchSupervision = watchSupervision(parsed),
): Promise<number> {
  const json = parsed.flags.output === 'json';
  let roots: readonly string[] = startingRoots(supervision.paths, io.cwd);
  // Set by the interrupt handler, between awaits.
  const asked = { interrupted: false };
  const isInterrupted = (): boolean => asked.interrupted;
  let current: WorkerRun | undefined;
  /** The round under way in the current worker, numbered as shown. */
  let started: RoundStart | undefined;
  /** After a fault: the rounds shown before the current worker started, and what restarted it. */
  let continues: WatchContinuation | undefined;
  let wake = (): void => undefined;
  const interrupt = (): void => {
    asked.interrupted = true;
    wake();
    const run = current;
    if (run === undefined) return;
    run.post({ kind: 'interrupt' });
    // A session stuck in the project's code cannot close itself.
    setTimeout(() => void run.stop(), CLOSE_GRACE_MS).unref();
  };
  const unsubscribe = io.onInterrupt?.(interrupt, { keys: supervision.keys });
  // SIGTERM stops it as Ctrl-C does: a clean close, exit 0.
  const unsubscribeTerminate = io.onTerminate?.(interrupt);
  try {
    for (;;) {
      const run = runWorkerOnce(
        argv,
        io,
        () => parsed.timeout,
        (message) => {
          if (message.kind === 'watching') roots = message.roots;
          if (message.kind === 'round-start') started = continuedRound(message.start, continues);
        },
        continues === undefined ? {} : { continues },
      );
      current = run;
      const { exitCode, end } = await run.ended;
      current = undefined;
      if (exitCode !== undefined) return exitCode;
      if (isInterrupted()) return EXIT.ok;
      const fault = describeWorkerFault(end);
      if (supervision.sayFault) supervision.sayFault(fault);
      else io.stdout.write(faultLine(fault, json, started));
      const roundsBefore = started?.number ?? continues?.roundsBefore ?? 0;
      started = undefined;
      if (fault.kind === 'internal') return EXIT.usage;
      if (!supervision.restart) return EXIT_OF_FAULT[fault.kind];
      const waiting = nextChangeIn(roots, io.cwd);
      wake = waiting.close;
      // Said once the watcher sees changes: an edit saved before would be missed.
      await Promise.race([waiting.ready, waiting.changed]);
      if (supervision.sayFault) supervision.sayFault(undefined);
      else if (!json) io.stdout.write('  waiting for a file to change to start again\n');
      const changed = await waiting.changed;
      if (isInterrupted()) return EXIT.ok;
      continues = { roundsBefore, changed };
    }
  } finally {
    unsubscribe?.();
    unsubscribeTerminate?.();
  }
}

/** How {@link superviseWatch} watches over a command: `watch`'s, or `get -w`'s. */
export interface WatchSupervision {
  /** The manifest paths the command was given (its files are watched after a fault). */
  readonly paths: readonly string[];
  /**
   * Says a fault, then (`undefined`) that the files are watched again; by default lines of
   * `watch`'s stream (or NDJSON) on stdout.
   */
  readonly sayFault?: (fault: WorkerFault | undefined) => void;
  /** After a fault, start again at the next change of the files; else end with its code. */
  readonly restart: boolean;
  /** Whether `q` and Ctrl-C on a terminal interrupt (raw mode), beside SIGINT. */
  readonly keys: boolean;
}

/** `cosi watch`'s: its paths are its arguments and `-f`. */
function watchSupervision(parsed: ParsedCommand): WatchSupervision {
  const files = [...((parsed.flags.file as string[] | undefined) ?? []), ...parsed.args];
  return { paths: files, restart: true, keys: true };
}

/** The exit code of a fault that ends the command (no restart). */
const EXIT_OF_FAULT: Record<WorkerFault['kind'], number> = {
  stuck: EXIT.notConverged,
  failed: EXIT.findings,
  config: EXIT.usage,
  internal: EXIT.usage,
};

/**
 * The fault as the line stream or NDJSON shows a round that could not finish: with its number and
 * trigger when it had started (`round 2: orders.yaml changed | stopped: ...`).
 */
function faultLine(fault: WorkerFault, json: boolean, round: RoundStart | undefined): string {
  const reason = `${fault.kind === 'stuck' ? 'did not converge (max-time): ' : ''}${fault.message}`;
  if (json) {
    const started =
      round === undefined
        ? {}
        : { round: round.number, trigger: round.trigger, changed: round.changed };
    return `${JSON.stringify({ ...started, status: 'error', reason, restart: 'on the next change' })}\n`;
  }
  if (round === undefined) return `round stopped: ${escapeControlLines(reason)}\n`;
  return `round ${round.number}: ${describeTrigger(round)} | stopped: ${escapeControlLines(reason)}\n`;
}
