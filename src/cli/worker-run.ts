import type { Transferable } from 'node:worker_threads';
import type { KnownFault } from '../app/check/fault-cases.js';
import { mergePlaces, type ManifestPlaces } from '../app/manifest-places.js';
import { startProjectWorker, type WorkerEnd } from '../app/project-worker.js';
import type { LaunchedWorker } from '../app/worker-launch.js';
import { packageFile } from '../loaders/package-location.js';
import { userCodeWait } from '../app/user-code-deadline.js';
import { parseDuration } from './duration.js';
import { acceptShortOptionEquals } from './short-option-equals.js';
import type { CliIo } from './io.js';
import type { WatchContinuation } from './watch/continued-round.js';
import { WORKER_COMMANDS } from './worker-commands.js';
import type { FromWorker, ToWorker } from './worker-messages.js';
import { launchCliWorker } from './cli-worker-launch.js';

/** A command's run in one worker, as {@link runWorkerOnce} starts it. */
export interface WorkerRun {
  /** Posts a message to the worker, moving `transfer` (a port) to it. */
  post(message: ToWorker, transfer?: readonly Transferable[]): void;
  /** Terminates the worker. */
  stop(): Promise<void>;
  /**
   * The command's exit code when it finished, else why the worker ended; with where the
   * manifests' resources were, once the worker had loaded them.
   */
  readonly ended: Promise<{
    readonly exitCode?: number;
    readonly end: WorkerEnd;
    readonly places?: ManifestPlaces;
    /** `check --each`: the path of the world it was checking last. */
    readonly world?: string;
  }>;
}

/**
 * Starts the command of `argv` in a supervised worker: its output goes to `io` as it comes,
 * the standard input is read for it on request; `onMessage` sees the other messages.
 */
export function runWorkerOnce(
  argv: readonly string[],
  io: CliIo,
  timeout: () => number | undefined,
  onMessage: (message: FromWorker) => void = () => undefined,
  {
    screen = false,
    launched,
    knownFaults,
    continues,
  }: {
    readonly screen?: boolean;
    /** The worker, when `bin/cosi.js` started it already (see `early-worker.ts`). */
    readonly launched?: LaunchedWorker;
    /** `check` run again after a fault: see `KnownFault`. */
    readonly knownFaults?: readonly KnownFault[];
    /** `watch` started again after a fault: see `CliWorkerData.continues`. */
    readonly continues?: WatchContinuation;
  } = {},
): WorkerRun {
  let exitCode: number | undefined;
  let places: ManifestPlaces | undefined;
  let world: string | undefined;
  const worker = startProjectWorker({
    launched:
      launched ??
      launchCliWorker(
        argv,
        {
          isTTY: io.isTTY,
          hasStdin: io.readStdin !== undefined,
          ...(screen ? { screen } : {}),
          ...(knownFaults === undefined ? {} : { knownFaults }),
          ...(continues === undefined ? {} : { continues }),
        },
        packageFile,
      ),
    // Read at each look at the heartbeat: the worker starts before the command line is parsed.
    wait: (site) => userCodeWait(timeout(), site),
    projectOutput: io.stderr,
    onMessage: (raw) => {
      const message = raw as FromWorker;
      switch (message.kind) {
        case 'output':
          for (const chunk of message.chunks) io[chunk.stream].write(chunk.text);
          return;
        case 'read-stdin':
          void sendStdin(io, (reply) => {
            worker.post(reply);
          });
          return;
        case 'manifest-places':
          places =
            message.changed === true && places !== undefined
              ? mergePlaces(message.places, places)
              : message.places;
          return;
        case 'check-world':
          world = message.path;
          places = undefined;
          return;
        case 'done':
          exitCode = message.exitCode;
          // Whatever the project's code left open (timers, sockets) goes with the worker.
          void worker.stop();
          return;
        default:
          onMessage(message);
      }
    },
  });
  return {
    post: (message, transfer) => {
      worker.post(message, transfer);
    },
    stop: () => worker.stop(),
    ended: worker.ended.then((end) => ({
      ...(exitCode === undefined ? {} : { exitCode }),
      end,
      ...(places === undefined ? {} : { places }),
      ...(world === undefined ? {} : { world }),
    })),
  };
}

async function sendStdin(io: CliIo, reply: (message: ToWorker) => void): Promise<void> {
  reply({ kind: 'stdin', input: io.readStdin ? await io.readStdin() : '' });
}

/** The strings of a repeatable flag's value (`-f a -f b`), none when it was not given. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** What the main thread needs of the command line: the bound, and `check`'s flags. */
export interface ParsedCommand {
  readonly name: string;
  readonly timeout?: number;
  readonly args: string[];
  readonly flags: Record<string, unknown>;
  /** The manifest paths it names: `-f`'s, then its path arguments (`cosi check DIR`). */
  readonly manifestPaths: string[];
}

/**
 * The command line as the command's own definition reads it; `undefined` when it does not parse
 * (the worker then says why, as the command would).
 */
export async function parseCommand(argv: readonly string[]): Promise<ParsedCommand | undefined> {
  const [name = '', ...rest] = argv;
  const define = await WORKER_COMMANDS.get(name)?.();
  if (define === undefined) return undefined;
  const command = acceptShortOptionEquals(define())
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
    .action(() => undefined);
  try {
    command.parse(rest, { from: 'user' });
    const flags = command.opts();
    const timeout = typeof flags.timeout === 'string' ? flags.timeout : undefined;
    const files: unknown = flags.file;
    const takesPaths = command.registeredArguments[0]?.name() === 'paths';
    return {
      name,
      args: command.args,
      flags,
      manifestPaths: [...stringsOf(files), ...(takesPaths ? command.args : [])],
      ...(timeout === undefined ? {} : { timeout: parseDuration(timeout, '--timeout') }),
    };
  } catch {
    return undefined;
  }
}
