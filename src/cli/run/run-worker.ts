/**
 * The worker thread `cosi run`'s runtime runs in (see `supervised-runtime.ts`): the project's
 * config and controllers, the state they work on (in memory, or the etcd client), the
 * manifests. What the main thread needs (the start, log records, reconcile counts, leadership,
 * figures for the metrics) is sent as data; the leader election is asked of it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toError } from '../../engine/errors.js';
import type { LogRecord } from '../../engine/runtime/logger.js';
import { withProcessExitGuard } from '../../app/process-exit-guard.js';
import { refusalOf } from '../../app/serve-refusal.js';
import type { ProjectFingerprint } from '../../app/project-fingerprint.js';
import {
  serveRuntime,
  type ReapplyResult,
  type RuntimeFigures,
  type ServeHooks,
  type ServeRequest,
} from '../../app/served-runtime.js';
import { heartbeatWriter } from '../../app/user-code-heartbeat.js';
import { limitHeapGrowthOnceCollected } from '../heap-growth.js';
import { captureProjectOutput, trackingSite } from './project-output.js';
import {
  codedError,
  errorCode,
  type CountBatch,
  type CrossedError,
  type FromRunWorker,
  type ToRunWorker,
} from './run-worker-messages.js';

const port = parentPort;
if (port === null) throw new Error('run-worker.ts runs as a worker thread');
limitHeapGrowthOnceCollected();
const { heartbeat, data } = workerData as { heartbeat: SharedArrayBuffer; data: ServeRequest };
const post = (message: FromRunWorker): void => {
  port.postMessage(message);
};

/** Records and counts are sent together, once per turn of the event loop. */
let logs: LogRecord[] = [];
let reconciles: CountBatch['reconciles'][number][] = [];
let writes: CountBatch['writes'][number][] = [];
/** Items added to each queue since the last batch (`ServeRequest.queueMetrics`). */
let adds = new Map<string, number>();
let taken: CountBatch['taken'][number][] = [];
let done: CountBatch['done'][number][] = [];
let scheduled = false;
const flush = (): void => {
  scheduled = false;
  output.flush();
  if (
    logs.length === 0 &&
    reconciles.length === 0 &&
    writes.length === 0 &&
    adds.size === 0 &&
    taken.length === 0 &&
    done.length === 0
  ) {
    return;
  }
  const counts: CountBatch = { reconciles, writes, adds: [...adds], taken, done };
  const batch = { kind: 'events', logs, counts } as const;
  logs = [];
  reconciles = [];
  writes = [];
  adds = new Map();
  taken = [];
  done = [];
  try {
    post(batch);
  } catch {
    // A controller logged a value that cannot be cloned (a function, a symbol): as text.
    post({ ...batch, logs: batch.logs.map(cloneableRecord) });
  }
};
const soon = (): void => {
  if (scheduled) return;
  scheduled = true;
  setImmediate(flush);
};
const counts: ServeHooks['counts'] = {
  reconciled: (controller, result, seconds, retried, failure) => {
    reconciles.push([controller, result, seconds, retried, failure]);
    soon();
  },
  wrote: (controller, op) => {
    writes.push([controller, op]);
    soon();
  },
  added: (controller) => {
    adds.set(controller, (adds.get(controller) ?? 0) + 1);
    soon();
  },
  taken: (controller, seconds) => {
    taken.push([controller, seconds]);
    soon();
  },
  done: (controller, seconds) => {
    done.push([controller, seconds]);
    soon();
  },
};

const codeOf = (error: unknown): { code?: string } => {
  const code = errorCode(error);
  return code === undefined ? {} : { code };
};

const crossed = (error: unknown): CrossedError => {
  const refusal = refusalOf(error);
  return refusal
    ? { message: refusal.message, refusal: refusal.code }
    : { message: toError(error).message, ...codeOf(error) };
};

/** The elections under way, by id: the main thread answers each. */
const elections = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
let nextId = 0;
const elect = (signal: AbortSignal, fingerprint: ProjectFingerprint): Promise<void> =>
  new Promise((resolve, reject) => {
    const id = ++nextId;
    elections.set(id, { resolve, reject });
    signal.addEventListener('abort', () => {
      if (!elections.delete(id)) return;
      post({ kind: 'elect-cancel', id });
      reject(toError(signal.reason));
    });
    post({ kind: 'elect', id, fingerprint });
  });

/** The loaded project waits here for the main thread's `proceed` (see `ServeHooks.loaded`). */
let proceed: { resolve: () => void; reject: (error: Error) => void } | undefined;
const loaded = (): Promise<void> =>
  new Promise((resolve, reject) => {
    proceed = { resolve, reject };
    flush();
    post({ kind: 'loaded' });
  });

const { monitor, site } = trackingSite(heartbeatWriter(heartbeat));
// What the project's code prints is logged as records, placed at the code that printed it.
const output = captureProjectOutput(
  (record) => {
    logs.push(record);
    soon();
  },
  site,
  soon,
);
const served = serveRuntime(data, {
  counts,
  onLog: (record) => {
    logs.push(record);
    soon();
  },
  ...(data.location.kind === 'etcd' ? { elect } : {}),
  loaded,
  onLeading: (controllers) => {
    flush();
    post({ kind: 'leading', controllers });
  },
  onConverged: (problems) => {
    flush();
    post({ kind: 'converged', problems });
  },
  onLeadFailed: (error) => {
    flush();
    post({ kind: 'lead-failed', error: crossed(error) });
  },
  monitor,
});

const answer = (id: number, work: () => Promise<ReapplyResult | RuntimeFigures>): void => {
  // cosi's own work (reading the manifests): a stall there is not the last controller's.
  monitor.leave();
  work().then(
    (value) => post({ kind: 'answer', id, value }),
    (error: unknown) => post({ kind: 'answer-failed', id, error: crossed(error) }),
  );
};

port.on('message', (message: ToRunWorker) => {
  switch (message.kind) {
    case 'proceed':
      proceed?.resolve();
      return;
    case 'elected':
      elections.get(message.id)?.resolve();
      elections.delete(message.id);
      return;
    case 'elect-failed':
      elections.get(message.id)?.reject(codedError(message.error));
      elections.delete(message.id);
      return;
    case 'reapply':
      answer(message.id, () => served.reapply());
      return;
    case 'figures':
      answer(message.id, () => served.figures());
      return;
    case 'stop':
      // A start that waits to go on ends here: it never touches the state.
      proceed?.reject(new Error('the runtime stopped'));
      void served
        .stop()
        .catch(() => undefined)
        .then(() => {
          monitor.stop();
          flush();
          post({ kind: 'stopped' });
        });
      return;
  }
});

// process.exit in the project's code is thrown where it was called: a reconcile that calls it
// fails (logged, retried), as one that throws; the guard stays for the worker's whole life.
await withProcessExitGuard(async () => {
  try {
    post({ kind: 'started', start: await served.started });
  } catch (error) {
    flush();
    post({ kind: 'start-failed', error: crossed(error) });
  }
  await new Promise<never>(() => undefined);
});

/** A log record whose fields are plain text where they would not cross. */
function cloneableRecord(record: LogRecord): LogRecord {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record.fields)) {
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      fields[key] = String(value);
    }
  }
  return { ...record, fields };
}
