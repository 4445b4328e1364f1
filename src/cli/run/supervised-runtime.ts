import { formatPointer } from '../../engine/resource/pointer.js';
import { startProjectWorker, type WorkerEnd } from '../../app/project-worker.js';
import { ServeRefusal } from '../../app/serve-refusal.js';
import type {
  ReapplyResult,
  RuntimeFigures,
  ServeHooks,
  ServeRequest,
  ServeStart,
  ServedRuntime,
} from '../../app/served-runtime.js';
import { userCodeWait } from '../../app/user-code-deadline.js';
import { describeWorkerFault } from '../../app/worker-fault.js';
import { packageFile } from '../../loaders/package-location.js';
import {
  codedError,
  errorCode,
  type CountBatch,
  type CrossedError,
  type FromRunWorker,
  type ToRunWorker,
} from './run-worker-messages.js';

/** The log code of each way a worker ends on its own. */
const FAULT_CODES: Record<WorkerEnd['kind'], string> = {
  stuck: 'user-code-stuck',
  'out-of-memory': 'out-of-memory',
  exited: 'process-exit',
  crashed: 'worker-crashed',
  'unreadable-message': 'worker-message',
};

/** How long a scrape waits for the worker's figures before it serves the last ones, wall ms. */
const FIGURES_WAIT_MS = 1_000;

/**
 * `cosi run`'s runtime in a supervised worker thread (see `startProjectWorker`): the project's
 * config and controllers, the state and the manifests run there; this thread keeps what must
 * answer whatever the project's code does (signals, the endpoints, the lease, the log), and
 * gets what they need as messages. A loop that never yields for `request.timeout`, running out
 * of heap, or an exit cosi could not catch ends the worker: `hooks.onFault` says which
 * controller, on which resource, and the run stops.
 */
export function serveInWorker(request: ServeRequest, hooks: ServeHooks): ServedRuntime {
  let started!: { resolve: (start: ServeStart) => void; reject: (error: Error) => void };
  const starting = new Promise<ServeStart>((resolve, reject) => (started = { resolve, reject }));
  starting.catch(() => undefined);
  const requests = new Map<
    number,
    { resolve: (value: never) => void; reject: (e: Error) => void }
  >();
  const elections = new Map<number, AbortController>();
  let nextId = 0;
  let stopping = false;
  let gone = false;
  let begun = false;
  let stopped: (() => void) | undefined;
  let figures: RuntimeFigures = { controllers: [] };

  const onMessage = (raw: unknown): void => {
    const message = raw as FromRunWorker;
    switch (message.kind) {
      case 'loaded':
        // Told to go on once the caller lets it (never, when it stops it instead).
        (hooks.loaded?.() ?? Promise.resolve()).then(
          () => post({ kind: 'proceed' }),
          () => undefined,
        );
        return;
      case 'started':
        begun = true;
        started.resolve(message.start);
        return;
      case 'start-failed':
        started.reject(revive(message.error));
        return;
      case 'events':
        for (const record of message.logs) hooks.onLog(record);
        countBatch(message.counts, hooks.counts);
        return;
      case 'elect':
        campaign(message.id, message.fingerprint);
        return;
      case 'elect-cancel':
        elections.get(message.id)?.abort(new Error('the runtime stopped'));
        elections.delete(message.id);
        return;
      case 'leading':
        hooks.onLeading(message.controllers);
        return;
      case 'converged':
        hooks.onConverged(message.problems);
        return;
      case 'lead-failed':
        hooks.onLeadFailed(revive(message.error));
        return;
      case 'answer':
        requests.get(message.id)?.resolve(message.value as never);
        requests.delete(message.id);
        return;
      case 'answer-failed':
        requests.get(message.id)?.reject(revive(message.error));
        requests.delete(message.id);
        return;
      case 'stopped':
        stopped?.();
        return;
    }
  };

  const worker = startProjectWorker({
    entry: packageFile('dist/cli/run/run-worker.js'),
    data: request,
    wait: (site) => userCodeWait(request.timeout, site),
    onMessage,
  });
  const post = (message: ToRunWorker): void => {
    worker.post(message);
  };

  const campaign = (id: number, fingerprint: Parameters<NonNullable<ServeHooks['elect']>>[1]) => {
    const elect = hooks.elect;
    if (elect === undefined) {
      post({ kind: 'elected', id });
      return;
    }
    const controller = new AbortController();
    elections.set(id, controller);
    elect(controller.signal, fingerprint).then(
      () => {
        if (elections.delete(id)) post({ kind: 'elected', id });
      },
      (error: unknown) => {
        if (!elections.delete(id)) return;
        const code = errorCode(error);
        post({
          kind: 'elect-failed',
          id,
          error: { message: (error as Error).message, ...(code === undefined ? {} : { code }) },
        });
      },
    );
  };

  const ask = <T>(message: (id: number) => ToRunWorker): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++nextId;
      requests.set(id, { resolve, reject });
      post(message(id));
    });

  void worker.ended.then((end) => {
    gone = true;
    const error = new Error('the runtime is gone');
    for (const { reject } of requests.values()) reject(error);
    requests.clear();
    for (const controller of elections.values()) controller.abort(error);
    elections.clear();
    stopped?.();
    if (stopping) return;
    const fault = describeWorkerFault(end);
    // The config's own code (loading, `setup`) before the start completed: the start failed, as
    // any configuration error (the operator's to fix).
    if (!begun && fault.kind === 'config') {
      started.reject(new ServeRefusal(fault.message, 'config'));
      return;
    }
    // The fault first: a start it ends is said as the fault (naming the controller), not as a
    // start that failed.
    hooks.onFault?.({
      message: fault.message,
      code: FAULT_CODES[end.kind],
      ...(fault.controller !== undefined ? { controller: fault.controller } : {}),
      ...(fault.pointer !== undefined ? { resource: formatPointer(fault.pointer) } : {}),
    });
    started.reject(new Error(fault.message));
  });

  return {
    started: starting,
    reapply: () => ask<ReapplyResult>((id) => ({ kind: 'reapply', id })),
    figures: async () => {
      // A worker stuck in a loop does not answer: the last figures it sent are served.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<RuntimeFigures>((resolve) => {
        timer = setTimeout(() => resolve(figures), FIGURES_WAIT_MS);
      });
      try {
        figures = await Promise.race([
          ask<RuntimeFigures>((id) => ({ kind: 'figures', id })),
          late,
        ]);
      } catch {
        // Gone: the last figures.
      } finally {
        clearTimeout(timer);
      }
      return figures;
    },
    stop: async () => {
      stopping = true;
      if (gone) return;
      const done = new Promise<void>((resolve) => (stopped = resolve));
      post({ kind: 'stop' });
      await done;
      await worker.stop();
    },
    abandon: () => worker.stop(),
  };
}

/** Tells `counts` what a batch of the worker's counts says. */
function countBatch(batch: CountBatch, counts: ServeHooks['counts']): void {
  for (const [controller, result, seconds, retried, failure] of batch.reconciles) {
    counts.reconciled(controller, result, seconds, retried, failure);
  }
  for (const [controller, op] of batch.writes) counts.wrote(controller, op);
  for (const [controller, n] of batch.adds) for (let i = 0; i < n; i++) counts.added(controller);
  for (const [controller, seconds] of batch.taken) counts.taken(controller, seconds);
  for (const [controller, seconds] of batch.done) counts.done(controller, seconds);
}

/** An error that crossed, as the error it was: a refusal stays one. */
function revive(error: CrossedError): Error {
  return error.refusal === undefined
    ? codedError(error)
    : new ServeRefusal(error.message, error.refusal);
}
