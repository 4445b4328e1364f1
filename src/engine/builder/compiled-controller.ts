import { compareStrings } from '../compare-strings.js';
import type { KubernetesKind } from '../resource/definition.js';
import { kindKey, pointerKey, type Pointer } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import type {
  Input,
  Output,
  QControllerBase,
  QEventMapper,
  QInputKind,
} from '../runtime/controller.js';
import { isTerminal, requeueAfter, RequeueError } from '../errors.js';
import { inBuilderTerms } from './access-hints.js';
import type { ResourceEvent } from '../state/state.js';
import { ExponentialBackoff, type BackoffOptions } from '../runtime/backoff.js';
import { createDeadline, deadlineClock } from './deadline.js';
import { createLateClient, createLaterMaps } from './later-maps.js';
import { toPartialObjectMetadata, withoutGeneration, type ObjectLike } from './events.js';
import type { EventHandler, RequestQueue } from './handlers.js';
import type { Predicate } from './predicates.js';
import {
  callReconciler,
  type ReconcileContext,
  type ReconcileRequest,
  type Reconciler,
  type Request,
  resultProblem,
} from './reconciler.js';
import type { Source } from './source.js';

/** One `for`, `owns` or `watches` call, resolved to a kind. */
export interface WatchSpec {
  readonly role: 'for' | 'owns' | 'watches';
  readonly namespace: string;
  readonly type: string;
  readonly handler: EventHandler;
  /** The watch's own predicates; the global ones are applied before them. */
  readonly predicates: readonly Predicate[];
  readonly onlyMetadata: boolean;
  /**
   * The type is a Kubernetes kind the API server keeps no generation for: predicates and the
   * handler see `metadata.generation` 0, so `generationChanged` drops its updates, as on a cluster.
   */
  readonly withoutGeneration?: boolean;
}

/** Everything `build()` compiles into a queue controller. */
export interface ControllerSpec {
  readonly name: string;
  /** The type of every request when there is a `for`. */
  readonly forType: string | undefined;
  readonly watches: readonly WatchSpec[];
  readonly rawSources: readonly Source[];
  readonly globalPredicates: readonly Predicate[];
  readonly outputs: readonly Output[];
  readonly concurrency: number | undefined;
  readonly needLeaderElection: boolean;
  readonly reconciler: Reconciler;
  /** The per-request backoff of errors and of `{ requeue: true }`; the runtime's when omitted. */
  readonly rateLimiter: BackoffOptions | undefined;
  /** Aborts a reconcile's signal after this many ms; no limit when omitted. */
  readonly reconciliationTimeout: number | undefined;
  /**
   * The runtime's Kubernetes kinds (`RuntimeOptions.kubernetesKind`): the handlers' and map
   * functions' client tells them, so that an owner handler finds a cluster-scoped owner.
   */
  readonly kubernetesKind?: (type: string) => KubernetesKind | undefined;
}

/** A request whose last reconcile ended in a terminal error. */
export interface TerminalFailure {
  readonly request: ReconcileRequest;
  readonly error: Error;
  /** When it happened, on the runtime's clock. */
  readonly at: number;
}

/** What `build()` resolves to: the queue controller registered with the runtime. */
export interface CompiledController extends QControllerBase, QEventMapper {
  /** Whether a manager starts it in its leader-election group. */
  readonly needLeaderElection: boolean;
  /**
   * Requests whose last reconcile threw a terminal error: not retried, kept here until the
   * request reconciles again without one. Sorted by namespace, type and id.
   */
  terminalErrors(): readonly TerminalFailure[];
}

/** Compiles the builder's declarations into a queue controller that routes whole events. */
export function compileController(spec: ControllerSpec): CompiledController {
  const byKind = new Map<string, WatchSpec[]>();
  const roles = new Map<string, { namespace: string; type: string; primary: boolean }>();
  for (const watch of spec.watches) {
    const key = kindKey(watch);
    let list = byKind.get(key);
    if (!list) byKind.set(key, (list = []));
    list.push(watch);
    const known = roles.get(key);
    const primary = watch.role === 'for' || (known?.primary ?? false);
    roles.set(key, { namespace: watch.namespace, type: watch.type, primary });
  }
  const inputs: Input<QInputKind>[] = [...roles.values()].map((r) => ({
    namespace: r.namespace,
    type: r.type,
    kind: r.primary ? 'primary' : 'mapped',
  }));
  const terminal = new Map<string, TerminalFailure>();
  /** The backoff of `{ requeue: true }`, per request key. */
  const requeues = new Map<string, ExponentialBackoff>();
  const client = createLateClient(spec.kubernetesKind);
  const later = createLaterMaps();
  let stopped: AbortSignal | undefined;

  const toPointer = (request: Request, fallbackType: string): Pointer => {
    const problem = requestProblem(request);
    if (problem !== undefined) {
      throw new Error(
        `controller ${JSON.stringify(spec.name)}: a handler or map function queued ${describeValue(request)}: ${problem}`,
      );
    }
    return {
      namespace: request.namespace,
      type: spec.forType ?? request.type ?? fallbackType,
      id: request.id,
    };
  };

  /** The queue handlers of a watch write to; `push` takes the pointers to reconcile. */
  const queueFor = (fallbackType: string, push: (pointer: Pointer) => void): RequestQueue => ({
    client: client.reader,
    add: (request) => push(toPointer(request, fallbackType)),
    addLater: (about, pending, retry) =>
      push(later.add(about, pending, retry, (request) => toPointer(request, fallbackType))),
  });

  const deliver = (
    watch: WatchSpec,
    event: ResourceEvent,
    queue: RequestQueue,
    isInInitialList: boolean,
  ): void => {
    const view = (r: Resource): ObjectLike => (watch.onlyMetadata ? toPartialObjectMetadata(r) : r);
    const project =
      watch.withoutGeneration === true ? (r: Resource) => withoutGeneration(view(r)) : view;
    const predicates = [...spec.globalPredicates, ...watch.predicates];
    const handler = watch.handler;
    switch (event.type) {
      case 'created': {
        const e = { object: project(event.resource), isInInitialList };
        if (predicates.every((p) => p.create(e))) handler.create?.(e, queue);
        break;
      }
      case 'updated': {
        const e = { objectOld: project(event.old), objectNew: project(event.resource) };
        if (predicates.every((p) => p.update(e))) handler.update?.(e, queue);
        break;
      }
      case 'destroyed': {
        const e = { object: project(event.resource) };
        if (predicates.every((p) => p.delete(e))) handler.delete?.(e, queue);
        break;
      }
    }
  };

  return {
    name: spec.name,
    needLeaderElection: spec.needLeaderElection,
    settings: {
      inputs,
      outputs: spec.outputs,
      ...(spec.concurrency === undefined ? {} : { concurrency: spec.concurrency }),
      ...(spec.rateLimiter === undefined ? {} : { backoff: spec.rateLimiter }),
    },

    mapEvent(input, event, context) {
      const out = new Map<string, Pointer>();
      const initial = context?.isInInitialList ?? false;
      for (const watch of byKind.get(kindKey(input)) ?? []) {
        const queue = queueFor(watch.type, (pointer) => out.set(pointerKey(pointer), pointer));
        deliver(watch, event, queue, initial);
      }
      return [...out.values()];
    },

    attachQueue(enqueue, signal) {
      stopped = signal;
      later.attach(enqueue);
      for (const source of spec.rawSources) source.start(queueFor(spec.name, enqueue), signal);
    },

    async reconcile(rt, pointer, log) {
      client.bind(rt);
      if (later.has(pointer)) {
        await later.run(pointer);
        return;
      }
      const request: ReconcileRequest = {
        namespace: pointer.namespace,
        id: pointer.id,
        type: pointer.type,
      };
      const key = pointerKey(pointer);
      const deadline = createDeadline(deadlineClock(rt), spec.reconciliationTimeout, stopped);
      const ctx: ReconcileContext = {
        client: rt,
        log: log.child({ request: `${pointer.namespace}/${pointer.id}`, type: pointer.type }),
        signal: deadline.signal,
      };
      let result;
      try {
        result = await callReconciler(spec.reconciler, ctx, request);
      } catch (error) {
        if (!isTerminal(error)) {
          terminal.delete(key);
          throw inBuilderTerms(error, spec.name);
        }
        terminal.set(key, { request, error, at: rt.clock.now() });
        // The engine records it, reports it and does not retry the request.
        throw error;
      } finally {
        deadline.cancel();
      }
      terminal.delete(key);
      const problem = resultProblem(result);
      if (problem !== undefined) {
        throw new TypeError(
          `controller ${JSON.stringify(spec.name)}: the reconcile returned a result it cannot take: ${problem}`,
        );
      }
      const after = result?.requeueAfter;
      if (after !== undefined && after > 0) {
        requeues.delete(key);
        throw requeueAfter(after);
      }
      if (result?.requeue === true) {
        let backoff = requeues.get(key);
        if (!backoff) requeues.set(key, (backoff = new ExponentialBackoff(spec.rateLimiter)));
        throw new RequeueError(backoff.next(), undefined, { rateLimited: true });
      }
      requeues.delete(key);
    },

    terminalErrors() {
      return [...terminal.entries()]
        .sort(([a], [b]) => compareStrings(a, b))
        .map(([, failure]) => failure);
    },
  };
}

/**
 * Why a queued value is no request, or `undefined` when it is one. Handlers and map functions
 * also come from plain JavaScript: a request queued as a bare id, or with a number for its id,
 * reached the reconciler as a request with no id (or a numeric one) and no error.
 */
function requestProblem(request: unknown): string | undefined {
  if (typeof request !== 'object' || request === null) {
    return 'a request is an object { namespace, id }';
  }
  const { namespace, id, type } = request as Record<string, unknown>;
  if (typeof id !== 'string' || id === '') return 'its id must be a non-empty string';
  if (typeof namespace !== 'string') return 'its namespace must be a string';
  if (type !== undefined && typeof type !== 'string')
    return 'its type, when given, must be a string';
  return undefined;
}

/** A queued value as a message shows it, whatever it is. */
function describeValue(value: unknown): string {
  try {
    // `undefined` (and a function) have no JSON: `JSON.stringify` answers `undefined` for them.
    const json = JSON.stringify(value) as string | undefined;
    return json ?? String(value);
  } catch {
    return String(value);
  }
}
