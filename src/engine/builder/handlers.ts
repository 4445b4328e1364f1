import { checkEventFuncs, checkFunction } from './event-funcs.js';
import type { ResourceType } from '../resource/define-resource.js';
import type { OwnerReference } from '../resource/metadata.js';
import type { CreateEvent, DeleteEvent, GenericEvent, ObjectLike, UpdateEvent } from './events.js';
import type { Request } from './reconciler.js';
import type { ControllerReader } from '../runtime/controller.js';

/**
 * What a map function may do with the state: look things up, never write; and ask a type's
 * Kubernetes kind (its scope), which makes it the scheme the owner-reference helpers take.
 */
export type ReadOnlyClient = Pick<ControllerReader, 'get' | 'find' | 'list' | 'kubernetesKind'>;

/** Where a handler puts the requests an event causes. Duplicates are merged downstream. */
export interface RequestQueue {
  add(request: Request): void;
  /**
   * The controller's read-only client (reads of its inputs and outputs), for handlers that look
   * related objects up. The queues the engine hands to handlers have it.
   */
  readonly client?: ReadOnlyClient;
  /**
   * Adds the requests `pending` resolves to, once it does. The engine's queues run this as work
   * of the controller: convergence waits for it, and a rejection is retried with the controller's
   * backoff by calling `retry`. `about` names the object in reports.
   */
  addLater?(
    about: ObjectLike,
    pending: Promise<readonly Request[]>,
    retry: () => Promise<readonly Request[]>,
  ): void;
}

/**
 * controller-runtime's `EventHandler`: turns an event that passed the predicates into requests.
 * A missing method ignores that kind of event.
 */
export interface EventHandler<O extends ObjectLike = ObjectLike> {
  create?(event: CreateEvent<O>, queue: RequestQueue): void;
  update?(event: UpdateEvent<O>, queue: RequestQueue): void;
  delete?(event: DeleteEvent<O>, queue: RequestQueue): void;
  generic?(event: GenericEvent<O>, queue: RequestQueue): void;
}

/** Collects requests, dropping repeats, and hands them on in order. */
function deduplicating(q: RequestQueue): RequestQueue {
  const seen = new Set<string>();
  return {
    ...(q.client ? { client: q.client } : {}),
    ...(q.addLater ? { addLater: q.addLater.bind(q) } : {}),
    add(request) {
      const key = `${request.namespace}\0${request.type ?? ''}\0${request.id}`;
      if (seen.has(key)) return;
      seen.add(key);
      q.add(request);
    },
  };
}

const requestFor = (object: ObjectLike): Request => ({
  namespace: object.metadata.namespace,
  id: object.metadata.id,
  type: object.metadata.type,
});

/**
 * Enqueues the object itself (the new one on update): what `for` uses.
 *
 * @example
 * controllerManagedBy(runtime).named('vm-watch').watches(VM, enqueueRequestForObject())
 */
export function enqueueRequestForObject(): EventHandler {
  return {
    create: (e, q) => q.add(requestFor(e.object)),
    update: (e, q) => q.add(requestFor(e.objectNew)),
    delete: (e, q) => q.add(requestFor(e.object)),
    generic: (e, q) => q.add(requestFor(e.object)),
  };
}

/** Options of {@link enqueueRequestForOwner}. */
export interface OwnerHandlerOptions {
  /**
   * Only the object's controller reference (the first with `controller: true`) counts; when it
   * points at another type, nothing is enqueued. This is what `owns` does by default.
   */
  readonly onlyControllerOwner?: boolean;
  /**
   * The owner type is cluster-scoped and its objects are kept in this namespace (cosi's place for
   * objects in none, their type's default namespace): every request names it, whatever the
   * namespace of the object, as controller-runtime's request for a cluster-scoped owner names
   * none. By default, for an owner type given as a `ResourceType`, its namespace when the type is
   * cluster-scoped (its definition says so, or the controller's client does: the runtime's
   * `kubernetesKind`); otherwise the owner is in the object's namespace.
   */
  readonly ownerNamespace?: string;
}

/**
 * Enqueues the owners of type `ownerType` named by the object's `ownerReferences`, in the object's
 * namespace (a cluster-scoped owner type: in `options.ownerNamespace`, where its objects are
 * kept); on update the owners of both the old and the new object, so a re-parented object
 * notifies both parents. Labels play no part: only references establish ownership.
 */
export function enqueueRequestForOwner(
  ownerType: ResourceType<unknown> | string,
  options: OwnerHandlerOptions = {},
): EventHandler {
  const type = typeof ownerType === 'string' ? ownerType : ownerType.type;
  const handle = typeof ownerType === 'string' ? undefined : ownerType;
  const declared =
    options.ownerNamespace ??
    (handle?.definition.kubernetes?.namespaced === false ? handle.namespace : undefined);
  /** Where the owners are kept when their type is cluster-scoped; `undefined` when namespaced. */
  const clusterNamespace = (q: RequestQueue): string | undefined =>
    declared ??
    (handle !== undefined && q.client?.kubernetesKind?.(type)?.namespaced === false
      ? handle.namespace
      : undefined);
  const owners = (object: ObjectLike, q: RequestQueue): void => {
    const refs = object.metadata.ownerReferences;
    let matching: readonly OwnerReference[];
    if (options.onlyControllerOwner) {
      const controller = refs.find((r) => r.controller === true);
      matching = controller ? [controller] : [];
    } else {
      matching = refs;
    }
    if (matching.length === 0) return;
    const namespace = clusterNamespace(q) ?? object.metadata.namespace;
    for (const ref of matching) {
      if (ref.type === type) q.add({ namespace, id: ref.id, type });
    }
  };
  return {
    create: (e, q) => owners(e.object, q),
    update: (e, q) => {
      const once = deduplicating(q);
      owners(e.objectOld, once);
      owners(e.objectNew, once);
    },
    delete: (e, q) => owners(e.object, q),
    generic: (e, q) => owners(e.object, q),
  };
}

/** What a map function of {@link enqueueRequestsFromMapFunc} gets besides the object. */
export interface MapFuncContext {
  /** The controller's read-only client: it may read the controller's inputs and outputs. */
  readonly client: ReadOnlyClient;
}

/**
 * A map function: the requests an object's event causes, at once or as a promise (to list related
 * objects through `ctx.client` first). `null` is no request, as a Go map function's nil slice is.
 */
export type MapFunc<O extends ObjectLike = ObjectLike> = (
  object: O,
  ctx: MapFuncContext,
) => MapResult | Promise<MapResult>;

type MapResult = readonly Request[] | null;

/** The client of a queue that has none: reads fail with a sentence saying why. */
const noClient: ReadOnlyClient = {
  get: () => Promise.reject(noClientError()),
  find: () => Promise.reject(noClientError()),
  list: () => Promise.reject(noClientError()),
};

function noClientError(): Error {
  return new Error(
    'this request queue has no client: map functions can read only inside a controller built by controllerManagedBy()',
  );
}

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/**
 * What a map function returned, as a list: `null` is none (a Go map function's nil slice).
 * Anything else that is no list fails the event with a sentence saying so, where iterating it
 * threw "result is not iterable"; `undefined` too, as a queue controller's `mapInput` does: it
 * is most often a forgotten `return`, and taking it for none would lose the change unseen.
 */
function requestsOf(result: unknown): readonly Request[] {
  if (result === null) return [];
  if (Array.isArray(result)) return result as readonly Request[];
  if (typeof result === 'object' && Symbol.iterator in result) {
    return [...(result as Iterable<Request>)];
  }
  const shown =
    typeof result === 'string'
      ? JSON.stringify(result)
      : typeof result === 'number' || typeof result === 'boolean' || typeof result === 'bigint'
        ? String(result)
        : result === undefined
          ? 'undefined'
          : `a value of type ${typeof result} that is no list`;
  throw new TypeError(
    `a map function returned ${shown}, not a list of requests { namespace, id } (null or [] for none)`,
  );
}

/**
 * Enqueues what `map` returns for the object; on update for both the old and the new object
 * (duplicates are merged). `map` may be async and read related objects through `ctx.client`
 * (the controller's inputs and outputs): controller-runtime's "list related objects in the map
 * function". A synchronous map's requests are queued at once; an async map runs as work of the
 * controller (convergence waits for it, a rejection is retried with backoff).
 *
 * @example
 * .watches(Config, enqueueRequestsFromMapFunc((config) =>
 *   config.spec.vms.map((id) => ({ namespace: config.metadata.namespace, id }))))
 * @example
 * // Every VM on the host that changed, looked up through the client.
 * .watches(Host, enqueueRequestsFromMapFunc(async (host, { client }) =>
 *   (await client.list<VMSpec>(VM.kind(host.metadata.namespace)))
 *     .filter((vm) => vm.spec.host === host.metadata.id)
 *     .map((vm) => ({ namespace: vm.metadata.namespace, id: vm.metadata.id }))))
 */
export function enqueueRequestsFromMapFunc<O extends ObjectLike>(map: MapFunc<O>): EventHandler<O> {
  checkFunction('enqueueRequestsFromMapFunc', map);
  const add = (object: O, q: RequestQueue): void => {
    const ctx: MapFuncContext = { client: q.client ?? noClient };
    const result = map(object, ctx);
    if (!isPromise(result)) {
      for (const request of requestsOf(result)) q.add(request);
      return;
    }
    const pending = result.then(requestsOf);
    const retry = async (): Promise<readonly Request[]> => requestsOf(await map(object, ctx));
    if (q.addLater) {
      q.addLater(object, pending, retry);
      return;
    }
    // A queue outside the engine: nothing tracks the promise, so the requests come when they come.
    void pending.then((requests) => {
      for (const request of requests) q.add(request);
    });
  };
  return {
    create: (e, q) => add(e.object, q),
    update: (e, q) => {
      const once = deduplicating(q);
      add(e.objectOld, once);
      add(e.objectNew, once);
    },
    delete: (e, q) => add(e.object, q),
    generic: (e, q) => add(e.object, q),
  };
}

/**
 * controller-runtime's `handler.Funcs`: a handler from the functions given; missing ones ignore
 * their events.
 *
 * @throws TypeError for a key it does not take (`CreateFunc`: it is `create` here) or a value
 * that is no function.
 */
export function handlerFuncs<O extends ObjectLike = ObjectLike>(
  funcs: EventHandler<O>,
): EventHandler<O> {
  checkEventFuncs('handlerFuncs', funcs);
  return { ...funcs };
}
