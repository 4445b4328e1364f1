import type { Session } from 'node:inspector';
import type { Worker } from 'node:worker_threads';
import type { Pointer } from '../engine/resource/pointer.js';
import { isInProject, scriptFile, type StackFrame } from '../loaders/stack-frames.js';

/**
 * Where a worker stuck in the project's code is, read from the worker itself: the innermost
 * frame in the project's files, and the resource one of that frame's variables holds (the
 * argument a reconcile or transform was given). The heartbeat knows only the last reconcile that
 * started, and a controller has several in flight at once (or another controller's started
 * while it awaited): the loop may be in any of them.
 */
export interface StuckCodePlace {
  readonly at?: StackFrame;
  readonly pointer?: Pointer;
}

/** A message of the inspector protocol, as the worker's session sends it. */
interface ProtocolMessage {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: unknown;
}

interface CallFrame {
  readonly location: {
    readonly scriptId: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly scopeChain: readonly {
    readonly type: string;
    readonly object: { readonly objectId?: string };
  }[];
}

interface PropertyDescriptor {
  readonly name: string;
  readonly value?: { readonly type: string; readonly value?: unknown; readonly objectId?: string };
}

/** Locals of a frame looked at for a resource, at most: a frame with more is not a reconcile's. */
const MAX_LOCALS = 32;

/**
 * Pauses `worker` with the inspector (V8 interrupts even a loop that never yields), reads where
 * it is, and lets it go (the caller terminates it). `undefined` when that cannot be known within
 * `bound` wall ms: the inspector is not built in, the worker ended, or no frame is the project's.
 */
export async function placeStuckCode(
  worker: Worker,
  projectDir: string,
  bound: number,
): Promise<StuckCodePlace | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), bound);
  });
  const inspector = await import('node:inspector').catch(() => undefined);
  if (inspector === undefined) return undefined;
  const session = new inspector.Session();
  const paused: PausedWorker = {};
  try {
    session.connect();
    return await Promise.race([readPlace(session, worker.threadId, projectDir, paused), late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    // A worker left paused in the debugger does not end when it is terminated: it is let go
    // (and its session ended) first, whether the reading finished or ran out of time.
    await Promise.race([
      paused.release?.().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, RELEASE_WAIT).unref()),
    ]);
    session.disconnect();
  }
}

/** How a worker the inspector may have paused is let go: set once its session is attached. */
interface PausedWorker {
  release?: () => Promise<void>;
}

/** Wall ms the worker's release may take, at most. */
const RELEASE_WAIT = 1_000;

async function readPlace(
  session: Session,
  threadId: number,
  projectDir: string,
  worker: PausedWorker,
): Promise<StuckCodePlace | undefined> {
  const post = (method: string, params?: object): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      session.post(method, params, (error, result) => {
        if (error) reject(error);
        else resolve(result as Record<string, unknown>);
      });
    });
  const attached = new Promise<string>((resolve) => {
    session.on('NodeWorker.attachedToWorker', (message: { params: Record<string, unknown> }) => {
      const info = message.params.workerInfo as { workerId?: string } | undefined;
      if (info?.workerId === String(threadId)) resolve(String(message.params.sessionId));
    });
  });
  await post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  const sessionId = await attached;

  const scripts = new Map<string, string>();
  const replies = new Map<number, (message: ProtocolMessage) => void>();
  let onPaused: ((frames: readonly CallFrame[]) => void) | undefined;
  session.on(
    'NodeWorker.receivedMessageFromWorker',
    (event: { params: { sessionId: string; message: string } }) => {
      if (event.params.sessionId !== sessionId) return;
      const message = JSON.parse(event.params.message) as ProtocolMessage;
      if (message.id !== undefined) {
        replies.get(message.id)?.(message);
        replies.delete(message.id);
      } else if (message.method === 'Debugger.scriptParsed') {
        scripts.set(String(message.params?.scriptId), String(message.params?.url));
      } else if (message.method === 'Debugger.paused') {
        onPaused?.((message.params?.callFrames ?? []) as readonly CallFrame[]);
      }
    },
  );
  let ids = 0;
  const send = (method: string, params: object = {}): Promise<ProtocolMessage> =>
    new Promise((resolve) => {
      const id = ++ids;
      replies.set(id, resolve);
      void post('NodeWorker.sendMessageToWorker', {
        sessionId,
        message: JSON.stringify({ id, method, params }),
      });
    });

  worker.release = async () => {
    await send('Debugger.resume');
    await post('NodeWorker.detach', { sessionId });
  };
  const paused = new Promise<readonly CallFrame[]>((resolve) => {
    onPaused = resolve;
  });
  await send('Debugger.enable');
  await send('Debugger.pause');
  const frames = await paused;
  for (const frame of frames) {
    const file = scriptFile(scripts.get(frame.location.scriptId));
    if (file === undefined || !isInProject({ file }, projectDir)) continue;
    const at = {
      file,
      line: frame.location.lineNumber + 1,
      col: frame.location.columnNumber + 1,
    };
    const pointer = await resourceInScope(frame, send);
    return pointer ? { at, pointer } : { at };
  }
  return undefined;
}

/**
 * The first of `frame`'s local variables (its parameters first) that is a resource: an object
 * with a `metadata` of string `type` and `id`.
 */
async function resourceInScope(
  frame: CallFrame,
  send: (method: string, params?: object) => Promise<ProtocolMessage>,
): Promise<Pointer | undefined> {
  const propertiesOf = async (objectId: string): Promise<readonly PropertyDescriptor[]> => {
    const reply = await send('Runtime.getProperties', { objectId, ownProperties: true });
    return (reply.result?.result ?? []) as readonly PropertyDescriptor[];
  };
  const local = frame.scopeChain.find((scope) => scope.type === 'local')?.object.objectId;
  if (local === undefined) return undefined;
  for (const variable of (await propertiesOf(local)).slice(0, MAX_LOCALS)) {
    const objectId = variable.value?.type === 'object' ? variable.value.objectId : undefined;
    if (objectId === undefined) continue;
    const metadata = (await propertiesOf(objectId)).find((p) => p.name === 'metadata');
    const metadataId = metadata?.value?.objectId;
    if (metadataId === undefined) continue;
    const fields = new Map(
      (await propertiesOf(metadataId)).map((p) => [p.name, p.value?.value] as const),
    );
    const [type, id, namespace] = [fields.get('type'), fields.get('id'), fields.get('namespace')];
    if (typeof type === 'string' && typeof id === 'string') {
      return { namespace: typeof namespace === 'string' ? namespace : '', type, id };
    }
  }
  return undefined;
}
