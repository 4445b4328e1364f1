import * as path from 'node:path';
import type { Transferable } from 'node:worker_threads';
import { frameInProject, type StackFrame } from '../loaders/stack-frames.js';
import { placeStuckCode } from './stuck-code-place.js';
import { displayPath } from './display-path.js';
import { heartbeatReader } from './user-code-heartbeat.js';
import { launchProjectWorker, workerHeapLimit, type LaunchedWorker } from './worker-launch.js';
import { toError } from '../engine/errors.js';
import { messageOfThrown, ThrownValueError } from '../engine/thrown-value.js';
import type { UserCodeSite } from './user-code-site.js';

/** Wall ms a stuck worker is looked into for where it is (see `stuck-code-place.ts`), at most. */
const STUCK_PLACE_WAIT = 3_000;

/** What a project worker is started with: its module, its data and its bounds. */
export type ProjectWorkerOptions = WorkerToSupervise & {
  /**
   * Wall ms the project's code, running at `site`, may keep the worker's JavaScript from yielding
   * (a loop that never returns) before the worker is terminated.
   */
  readonly wait: (site: UserCodeSite) => number;
  /** Each message the worker posts, in order. */
  readonly onMessage: (message: unknown) => void;
  /** How often the heartbeat is read, wall ms (default 100). */
  readonly pollMs?: number;
  /**
   * Where what the project's code writes to its `process.stdout` (a stray `console.log`) goes:
   * the command's stderr, never its stdout, which is the command's data (`-o json`, a JUnit
   * report). Default the process's stderr.
   */
  readonly projectOutput?: { write(text: string): unknown };
};

/** The worker to supervise: one to start now, or one started already. */
export type WorkerToSupervise =
  | {
      /** The module the worker runs; it reads `workerData.heartbeat` and `workerData.data`. */
      readonly entry: URL;
      /** Passed to the worker as `workerData.data` (structured-cloned). */
      readonly data: unknown;
      /** The worker's old-generation heap limit, MB: {@link workerHeapLimit} by default. */
      readonly heapMb?: number;
      readonly launched?: undefined;
    }
  | {
      /**
       * The worker, started already (`launchProjectWorker`): it is supervised from here on, and
       * what it did before is read first.
       */
      readonly launched: LaunchedWorker;
    };

/**
 * How a project worker ended. `exited`: on its own, or terminated by {@link ProjectWorker.stop}
 * (`code` is then 1); the others are its project's faults, with the site of the project's code
 * that was running (`undefined`: cosi's own).
 */
export type WorkerEnd = (
  | { readonly kind: 'exited'; readonly code: number; readonly site?: UserCodeSite }
  | {
      readonly kind: 'stuck';
      readonly site: UserCodeSite;
      readonly waited: number;
      /** Where in the project's files it was running (display path), when that could be read. */
      readonly at?: StackFrame;
    }
  | { readonly kind: 'out-of-memory'; readonly site?: UserCodeSite; readonly heapMb: number }
  | {
      /** It posted a message of cosi's kinds that this side could not read (why, in one line). */
      readonly kind: 'unreadable-message';
      readonly message: string;
      /** Never given: the code running when this side reads the message may not have posted it. */
      readonly site?: undefined;
    }
  | {
      readonly kind: 'crashed';
      /** What was thrown, in one line. */
      readonly message: string;
      /** Its stack, when it was an error that had one. */
      readonly stack?: string;
      readonly site?: UserCodeSite;
    }
) & {
  /** The project's config file (display path), when it had been loaded. */
  readonly config?: string;
  /** The worker's last mark (see `heartbeatWriter`), when it made one. */
  readonly mark?: number;
};

/** A started project worker. */
export interface ProjectWorker {
  /** Posts a message to the worker. */
  /** Posts a message to the worker, moving `transfer` (a port) to it. */
  post(message: unknown, transfer?: readonly Transferable[]): void;
  /** Terminates the worker (it has said all it had to); `ended` then resolves as `exited`. */
  stop(): Promise<void>;
  /** Resolves once the worker is gone, with why. */
  readonly ended: Promise<WorkerEnd>;
}

/**
 * Runs a project's code in a worker thread, supervised: a `resourceLimits` heap, so that running
 * out of memory ends the worker and not the process; a heartbeat (see `user-code-heartbeat.ts`)
 * that says which code of the project's was running; and a deadline: once the worker's event
 * loop has not turned for `wait` ms while the project's code runs, the worker is terminated and
 * `ended` says where it was stuck and for how long. cosi's own work (reading manifests,
 * rendering) is never cut short. A reconcile awaiting a promise that never settles leaves the
 * event loop turning: the runtime's own bound stops that one, with a report.
 *
 * The message boundary is the caller's: the worker posts what it has (output, a result) with
 * `parentPort.postMessage`, in order, and this side hands each to `onMessage`. The project's code
 * may post there too: a message that is not an object with a `kind` is dropped, and one that
 * `onMessage` throws on ends the worker (`unreadable-message`), so that nothing it posts throws
 * here.
 */
export function startProjectWorker(options: ProjectWorkerOptions): ProjectWorker {
  const launched =
    options.launched !== undefined
      ? options.launched
      : launchProjectWorker(
          options.entry,
          options.data,
          options.heapMb ?? workerHeapLimit(process.env),
        );
  const { worker, heartbeat } = launched;
  const projectOutput = options.projectOutput ?? process.stderr;
  worker.stdout.setEncoding('utf8');
  worker.stdout.on('data', (text: string) => projectOutput.write(text));
  const read = heartbeatReader(heartbeat);
  let stopping = false;
  let fault: WorkerEnd | undefined;
  const where = (): { site?: UserCodeSite; config?: string; mark?: number } => {
    const { site, config, mark } = read();
    return {
      ...(site ? { site } : {}),
      ...(config === undefined ? {} : { config }),
      ...(mark === undefined ? {} : { mark }),
    };
  };
  // The worker's port is the project's code's too (`parentPort`): what is not one of cosi's
  // messages (an object with a `kind`) is not read, and one this side cannot read ends the
  // worker as its fault, never this thread.
  const onMessage = (message: unknown): void => {
    if (!isCosiMessage(message)) return;
    try {
      options.onMessage(message);
    } catch (error) {
      // Not placed at the code running now: the message was posted before this side read it,
      // and the worker has gone on since (the config it was loading may have loaded).
      const { config } = where();
      fault ??= {
        kind: 'unreadable-message',
        message: messageOfThrown(error),
        ...(config === undefined ? {} : { config }),
      };
      void worker.terminate();
    }
  };
  // What the worker's code threw where nothing caught it: any value, as structured-cloned.
  const onError = (error: unknown): void => {
    fault ??= isOutOfMemory(error)
      ? { kind: 'out-of-memory', heapMb: launched.heapMb, ...where() }
      : { kind: 'crashed', ...describeUncaught(error, where().config), ...where() };
  };
  // A reading is stuck when the event loop has not beaten since it was first seen, with the
  // project's code running. Its age is measured from when this side first saw its sequence.
  let last = read();
  let seqSince = performance.now();
  let aliveSince = seqSince;
  const poll = setInterval(() => {
    const now = performance.now();
    const reading = read();
    if (reading.seq !== last.seq) seqSince = now;
    if (reading.alive !== last.alive || reading.seq !== last.seq) aliveSince = now;
    last = reading;
    if (
      fault !== undefined ||
      reading.site === undefined ||
      now - aliveSince < options.wait(reading.site)
    )
      return;
    // Terminated once: each call of `terminate` waits on the worker's exit with a listener of
    // its own, and a worker stuck in a loop may take a while to stop on a busy machine.
    const stuck = {
      kind: 'stuck',
      site: reading.site,
      waited: now - seqSince,
      ...(reading.config === undefined ? {} : { config: reading.config }),
      ...(reading.mark === undefined ? {} : { mark: reading.mark }),
    } as const;
    fault = stuck;
    // Where the loop is, read from the paused worker: the heartbeat's site is only the last
    // reconcile that started, and others may have been in flight.
    const config = reading.config;
    void (
      config === undefined
        ? Promise.resolve(undefined)
        : placeStuckCode(worker, path.dirname(path.resolve(config)), STUCK_PLACE_WAIT)
    ).then((place) => {
      if (place?.at !== undefined) {
        const { at, pointer } = place;
        const site =
          pointer !== undefined && stuck.site.kind === 'reconcile'
            ? { ...stuck.site, pointer }
            : stuck.site;
        fault = { ...stuck, site, at: { ...at, file: displayPath(process.cwd(), at.file) } };
      }
      void worker.terminate();
    });
  }, options.pollMs ?? 100);
  const ended = new Promise<WorkerEnd>((resolve) => {
    launched.take({
      message: onMessage,
      error: onError,
      exit: (code) => {
        clearInterval(poll);
        if (fault) return resolve(fault);
        resolve({ kind: 'exited', code, ...(stopping ? {} : where()) });
      },
    });
  });
  return {
    post: (message, transfer) => {
      worker.postMessage(message, transfer === undefined ? undefined : [...transfer]);
    },
    stop: async () => {
      stopping = true;
      await worker.terminate();
    },
    ended,
  };
}

/** A message of cosi's own: an object with a `kind` (structured-cloned: no getters). */
function isCosiMessage(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { kind?: unknown }).kind === 'string'
  );
}

function isOutOfMemory(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
  );
}

/**
 * An uncaught value in one line (its first), and its stack when it had one. The place is the
 * first frame in the project's code (beside its config) when there is one, as a controller's
 * error is placed; else the first frame outside Node's own modules.
 */
function describeUncaught(thrown: unknown, config?: string): { message: string; stack?: string } {
  const error = toError(thrown);
  const line = (error.message.split('\n')[0] ?? '').trim();
  if (error instanceof ThrownValueError) return { message: line };
  const named = error.name && error.name !== 'Error' ? `${error.name}: ${line}` : line;
  if (typeof error.stack !== 'string') return { message: named };
  const inProject =
    config === undefined
      ? undefined
      : frameInProject(error.stack, path.dirname(path.resolve(config)));
  const at = inProject
    ? `${displayPath(process.cwd(), inProject.file)}:${inProject.line}:${inProject.col}`
    : firstFrame(error.stack);
  return { message: at === undefined ? named : `${named} (at ${at})`, stack: error.stack };
}

/** The place of a stack's first frame outside Node's own modules. */
function firstFrame(stack: string): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const place = /^\s*at (?:.* \()?(.+?:\d+:\d+)\)?$/.exec(line)?.[1];
    if (place !== undefined && !place.startsWith('node:')) return place;
  }
  return undefined;
}
