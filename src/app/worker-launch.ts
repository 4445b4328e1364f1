import type { Worker } from 'node:worker_threads';
import { createHeartbeatBuffer } from './user-code-heartbeat.js';

/** The events of a launched worker that its supervisor reads. */
export interface WorkerEvents {
  readonly message: (message: unknown) => void;
  readonly error: (error: unknown) => void;
  readonly exit: (code: number) => void;
}

/** A project worker started before its supervisor was ready (see {@link launchProjectWorker}). */
export interface LaunchedWorker {
  readonly worker: Worker;
  /** The heartbeat the worker writes (see `user-code-heartbeat.ts`). */
  readonly heartbeat: SharedArrayBuffer;
  /** The worker's heap limit, MB (the given one, else the process's: see {@link processHeapMb}). */
  readonly heapMb: number;
  /**
   * Hands the worker's events to `events`: first those it had before, in their order, then each
   * as it comes. Once.
   */
  take(events: WorkerEvents): void;
}

/**
 * Starts a project worker (`entry`, with `data` and the heartbeat as its `workerData`) whose
 * events are kept until its supervisor takes them: the worker may start before the supervisor
 * has loaded (see `early-worker.ts`), and a message or an exit that came in between is not lost.
 */
export function launchProjectWorker(
  entry: URL | string,
  data: unknown,
  heapMb: number | undefined,
): LaunchedWorker {
  const heartbeat = createHeartbeatBuffer();
  // Node's worker module is loaded here, not by this module: the process's entry
  // (`cli-entry.ts`) has it for commands that may start no worker (`--help`).
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(entry, {
    workerData: { heartbeat, data },
    // Without a limit given, V8's own: the worker's heap is sized as the main thread's is (from
    // the machine's memory, or node's --max-old-space-size).
    ...(heapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapMb } }),
    // The worker's own process.stdout (a stray console.log of the project's) is kept for its
    // supervisor, which sends it to stderr (`ProjectWorkerOptions.projectOutput`); its stderr
    // is forwarded to this process's. cosi's own output goes through messages.
    stdout: true,
    stderr: false,
  });
  type Event = {
    [K in keyof WorkerEvents]: { kind: K; value: Parameters<WorkerEvents[K]>[0] };
  }[keyof WorkerEvents];
  let kept: Event[] | undefined = [];
  let taken: WorkerEvents | undefined;
  const deliver = (event: Event): void => {
    if (taken === undefined) kept?.push(event);
    else (taken[event.kind] as (value: unknown) => void)(event.value);
  };
  worker.on('message', (value: unknown) => deliver({ kind: 'message', value }));
  worker.on('error', (value: unknown) => deliver({ kind: 'error', value }));
  worker.once('exit', (value: number) => deliver({ kind: 'exit', value }));
  return {
    worker,
    heartbeat,
    get heapMb() {
      return heapMb ?? processHeapMb();
    },
    take: (events) => {
      if (taken !== undefined) throw new Error('a launched worker is taken once');
      taken = events;
      const before = kept ?? [];
      kept = undefined;
      for (const event of before) (events[event.kind] as (value: unknown) => void)(event.value);
    },
  };
}

/**
 * The heap limit a project worker is given: the `COSI_WORKER_HEAP_MB` environment variable, else
 * `undefined`, V8's default, which is the process's own limit (what the project would have had in
 * the main thread; see {@link processHeapMb}).
 */
export function workerHeapLimit(
  env: Readonly<Record<string, string | undefined>>,
): number | undefined {
  const given = Number(env.COSI_WORKER_HEAP_MB);
  return Number.isInteger(given) && given > 0 ? given : undefined;
}

/**
 * This thread's heap limit, MB: a worker's without a limit given is the same. Node's `v8` module
 * is loaded when it is asked (a worker that runs out of memory), not as a worker starts.
 */
export function processHeapMb(): number {
  return Math.round(
    process.getBuiltinModule('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20,
  );
}
