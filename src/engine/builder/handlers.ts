import type { ResourceType } from '../resource/define-resource.js';
import type { OwnerReference } from '../resource/metadata.js';
import type { CreateEvent, DeleteEvent, GenericEvent, ObjectLike, UpdateEvent } from './events.js';
import type { Request } from './reconciler.js';

/** Where a handler puts the requests an event causes. Duplicates are merged downstream. */
export interface RequestQueue {
  add(request: Request): void;
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
}

/**
 * Enqueues the owners of type `ownerType` named by the object's `ownerReferences`, in the object's
 * namespace; on update the owners of both the old and the new object, so a re-parented object
 * notifies both parents. Labels play no part: only references establish ownership.
 */
export function enqueueRequestForOwner(
  ownerType: ResourceType<unknown> | string,
  options: OwnerHandlerOptions = {},
): EventHandler {
  const type = typeof ownerType === 'string' ? ownerType : ownerType.type;
  const owners = (object: ObjectLike, q: RequestQueue): void => {
    const refs = object.metadata.ownerReferences;
    let matching: readonly OwnerReference[];
    if (options.onlyControllerOwner) {
      const controller = refs.find((r) => r.controller === true);
      matching = controller ? [controller] : [];
    } else {
      matching = refs;
    }
    for (const ref of matching) {
      if (ref.type === type) q.add({ namespace: object.metadata.namespace, id: ref.id, type });
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

/**
 * Enqueues what `map` returns for the object; on update for both the old and the new object
 * (duplicates are merged). `map` runs synchronously inside event delivery, so it should only look
 * at the object it is given.
 *
 * @example
 * .watches(Config, enqueueRequestsFromMapFunc((config) =>
 *   config.spec.vms.map((id) => ({ namespace: config.metadata.namespace, id }))))
 */
export function enqueueRequestsFromMapFunc<O extends ObjectLike>(
  map: (object: O) => readonly Request[],
): EventHandler<O> {
  const add = (object: O, q: RequestQueue): void => {
    for (const request of map(object)) q.add(request);
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
 */
export function handlerFuncs<O extends ObjectLike = ObjectLike>(
  funcs: EventHandler<O>,
): EventHandler<O> {
  return { ...funcs };
}
