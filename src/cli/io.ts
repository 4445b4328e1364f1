import type { KnownFault } from '../app/check/fault-cases.js';
import type { WatchFiles } from '../app/file-events.js';
import type { UserCodeMonitor } from '../app/user-code-site.js';
import type { RoundStart } from '../app/watch-session.js';
import type { WatchControls, WatchScreen } from './ui/watch-controls.js';
import type { WatchContinuation } from './watch/continued-round.js';
import { EXIT } from './exit-codes.js';
import { MAX_MANIFEST_BYTES } from '../loaders/manifest-size.js';
import { readAtMost } from './read-stdin.js';
import { stderrJoinsStdout } from './shared-output.js';
import { onProcessInterrupt, type InterruptOptions } from './watch/interrupt.js';

export type { InterruptOptions } from './watch/interrupt.js';

/** Where a command writes, and the process facts it may look at: injected so tests can run it. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The whole standard input, for `-f -` (bytes, decoded as strictly as files); absent where there is none to read. */
  readonly readStdin?: () => Promise<Uint8Array | string>;
  /** Whether stdout is a terminal (color and progress only then). */
  readonly isTTY: boolean;
  /**
   * Whether stderr goes where stdout goes (`2>&1`, `> log 2>&1`): what a command says on stdout
   * need not be said on stderr too (see `shared-output.ts`).
   */
  readonly stderrJoinsStdout?: boolean;
  /**
   * `check` run again after its project's code stopped the worker it ran in: the faults known
   * (see `KnownFault`); their worlds are checked without running their controllers.
   */
  readonly knownFaults?: readonly KnownFault[];
  /**
   * Subscribes to the user's request to stop a long-running command (`watch`): Ctrl-C, `q`.
   * Returns the unsubscribe. Commands that never end without it refuse to start.
   */
  readonly onInterrupt?: (handler: () => void, options?: InterruptOptions) => () => void;
  /**
   * Subscribes to a request to terminate (SIGTERM), which a long-lived runtime (`run`) answers
   * with a clean stop. Returns the unsubscribe.
   */
  readonly onTerminate?: (handler: () => void) => () => void;
  /**
   * Subscribes to a hang-up (SIGHUP: the terminal or the ssh session that started it closed),
   * which a long-lived runtime (`run`) answers with a clean stop as it does SIGTERM (Node's default
   * would end the process at once, with nothing stopped or released). Returns the unsubscribe.
   */
  readonly onHangup?: (handler: () => void) => () => void;
  /**
   * Ends the process at once with `code`, skipping what is left of a clean stop: a long-lived
   * runtime (`run`) answers a second SIGTERM / Ctrl-C with it. Absent where nothing may end the
   * process (tests run commands in theirs).
   */
  readonly exit?: (code: number) => void;
  /**
   * The terminal, when both stdin and stdout are one: what a full-screen view (`watch`) draws on
   * and reads keys from.
   */
  readonly terminal?: Terminal;
  /** Told when the project's code runs: the heartbeat of the worker a command runs in. */
  readonly monitor?: UserCodeMonitor;
  /**
   * Whether a command that runs the project's code in this thread may move it to a supervised
   * worker thread (`cosi test`'s scenarios): the real process's; a test that runs commands
   * in its own process, on the sources, runs the code in its thread.
   */
  readonly isolateUserCode?: boolean;
  /**
   * In the worker thread a full-screen `watch` runs in: the screen, drawn by the main thread,
   * which this side sends each round to (see `remote-watch-screen.ts`).
   */
  readonly watchScreen?: RemoteScreen;
  /**
   * `watch` in a worker started again after a fault stopped the one before: its rounds follow
   * those shown before.
   */
  readonly watchContinues?: WatchContinuation;
  /** Told as `watch`'s line stream or NDJSON starts a round (the supervisor shows a fault as it). */
  readonly watchRoundStarted?: (start: RoundStart) => void;
  /** How `watch` watches files: chokidar when absent. */
  readonly watchFiles?: WatchFiles;
}

/** Starts a watch screen that another thread draws. */
export type RemoteScreen = (
  controls: WatchControls,
  options: { readonly stable?: boolean },
) => WatchScreen;

/** The process's terminal streams. */
export interface Terminal {
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
}

/**
 * Node's own `process.exit`, taken when this module loads: before any project's code runs, and
 * so before `withProcessExitGuard` replaces it for that code. `run`'s second signal ends the
 * process through it; through `process.exit` it would hit the guard, which throws
 * (`ProcessExitError` from a signal handler: an uncaught exception, a stack trace and exit 1).
 */
// eslint-disable-next-line @typescript-eslint/unbound-method
const exitProcess = process.exit;

/** How long an exit at once waits for its output to reach a slow reader, wall ms. */
const EXIT_FLUSH_MS = 3_000;

/**
 * Ends the process with `code` once what it wrote to stdout and stderr has left it, or after
 * {@link EXIT_FLUSH_MS}: a pipe is written asynchronously, and a reader that is slow (a busy
 * journald, a log sidecar) would lose the log's tail, the lines saying why it stopped among
 * them. The code holds whatever ends the process meanwhile; a second call ends it at once.
 */
let exiting = false;
function exitOnceFlushed(code: number): void {
  const pending = [process.stdout, process.stderr].filter((stream) => stream.writableLength > 0);
  if (exiting || pending.length === 0) {
    exitProcess.call(process, code);
    return;
  }
  exiting = true;
  process.on('exit', () => {
    process.exitCode = code;
  });
  const exit = (): void => void exitProcess.call(process, code);
  const until = performance.now() + EXIT_FLUSH_MS;
  // Polled: `drain` comes only after a write that filled the buffer.
  const poll = (): void => {
    if (performance.now() >= until || pending.every((stream) => stream.writableLength === 0)) {
      exit();
    } else {
      setTimeout(poll, 10);
    }
  };
  poll();
}

/**
 * The standard input, for `-f -`. From a terminal, cosi says it waits on it (nothing else
 * would: a `cosi check -f -` typed by hand looked hung).
 */
function readStandardInput(): Promise<Buffer> {
  if (process.stdin.isTTY) {
    process.stderr.write('cosi: reading manifests from the standard input (Ctrl-D ends it)\n');
  }
  return readAtMost(process.stdin, MAX_MANIFEST_BYTES);
}

/** The real process. */
export function processIo(): CliIo {
  // Read once: a check run again after a fault (see `superviseWorkerOnce`) gets the same input.
  let stdin: Promise<Uint8Array | string> | undefined;
  return {
    stdout: closablePipe(process.stdout),
    stderr: closablePipe(process.stderr),
    cwd: process.cwd(),
    // One byte past the limit is enough for the loader to report the input too large.
    readStdin: () => (stdin ??= readStandardInput()),
    env: process.env,
    isTTY: process.stdout.isTTY,
    stderrJoinsStdout: stderrJoinsStdout(),
    onInterrupt: onProcessInterrupt,
    onTerminate: (handler) => {
      process.on('SIGTERM', handler);
      return () => process.off('SIGTERM', handler);
    },
    onHangup: (handler) => {
      process.on('SIGHUP', handler);
      return () => process.off('SIGHUP', handler);
    },
    exit: exitOnceFlushed,
    isolateUserCode: true,
    ...(process.stdout.isTTY && process.stdin.isTTY
      ? { terminal: { stdout: process.stdout, stdin: process.stdin } }
      : {}),
  };
}

/**
 * Color only on a terminal, never with `NO_COLOR` set, `FORCE_COLOR=0` (or `false`) or
 * `--no-color`; `FORCE_COLOR` set to anything else colors off a terminal too.
 */
export function useColor(io: CliIo, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  const force = io.env.FORCE_COLOR;
  if (force === '0' || force === 'false') return false;
  if (force !== undefined) return true;
  return io.isTTY;
}

/**
 * A stream that may be a pipe whose reader went away (`cosi apply | head -2`): once it reports
 * `EPIPE`, further output is dropped and the command ends as it would have, without a stack
 * trace. Any other write error is still reported.
 */
/** Told every text a command writes, as it writes it (see {@link teeIo}). */
export interface OutputTee {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** `io`, with every text written to its stdout and stderr told to `tee` too. */
export function teeIo(io: CliIo, tee: OutputTee): CliIo {
  return {
    ...io,
    stdout: {
      write: (text: string) => {
        tee.stdout(text);
        return io.stdout.write(text);
      },
    },
    stderr: {
      write: (text: string) => {
        tee.stderr(text);
        return io.stderr.write(text);
      },
    },
  };
}

/** Whether a write to the process's stdout or stderr failed otherwise than with `EPIPE`. */
let outputFailed = false;

/**
 * The exit code of a command that ended with `code`, once a failed write of its output has been
 * reported: {@link EXIT.usage} when the report it wrote was lost (`-o junit > /dev/full`:
 * `ENOSPC`), as a `--report FILE` that cannot be written is, else `code`. A reader gone away
 * (`EPIPE`, `cosi apply | head`) is no failure. A stream reports its error on a later turn: one
 * turn is waited for it; one reported later still sets the process's exit code (see
 * `closablePipe`).
 */
export async function exitCodeAfterOutput(code: number): Promise<number> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  return outputFailed ? EXIT.usage : code;
}

function closablePipe(stream: NodeJS.WriteStream): CliIo['stdout'] {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      closed = true;
      return;
    }
    outputFailed = true;
    process.exitCode = EXIT.usage;
    if (stream !== process.stderr) process.stderr.write(`cosi: cannot write: ${error.message}\n`);
  });
  return { write: (text: string) => (closed ? true : stream.write(text)) };
}
