import type { GenericEvent, ObjectLike } from './events.js';
import { enqueueRequestForObject, type EventHandler, type RequestQueue } from './handlers.js';
import type { Predicate } from './predicates.js';

/**
 * An already configured event source for `watchesRawSource`: controller-runtime's `Source`. It
 * is started once the controller runs and adds requests to its queue directly, through its own
 * predicates and handler; the builder's global predicates (`withEventFilter`) do not apply.
 */
export interface Source {
  /** Starts delivering into `queue` until `signal` aborts. */
  start(queue: RequestQueue, signal: AbortSignal): void;
}

/** Options of {@link channelSource}. */
export interface ChannelSourceOptions<O extends ObjectLike> {
  /** Enqueues the object itself by default. */
  readonly handler?: EventHandler<O>;
  /** Run in order before the handler; the first that refuses drops the event. */
  readonly predicates?: readonly Predicate<O>[];
}

/** A source fed from code: every `send` is a generic event. */
export interface ChannelSource<O extends ObjectLike = ObjectLike> extends Source {
  /**
   * Delivers a generic event for `object`. Events sent before the controller starts are kept
   * and delivered at start; events sent after it stopped are dropped.
   */
  send(object: O): void;
}

/**
 * controller-runtime's `source.Channel`: events pushed from outside the state (a timer, a
 * webhook, a test), as generic events.
 *
 * @example
 * const ticks = channelSource();
 * await controllerManagedBy(runtime).for(VM).watchesRawSource(ticks).complete(reconcile);
 * ticks.send(VM.create('web'));
 */
export function channelSource<O extends ObjectLike = ObjectLike>(
  options: ChannelSourceOptions<O> = {},
): ChannelSource<O> {
  const handler = options.handler ?? enqueueRequestForObject();
  const predicates = options.predicates ?? [];
  const pending: O[] = [];
  const queues = new Set<RequestQueue>();
  let started = false;
  const deliver = (object: O, queue: RequestQueue): void => {
    const event: GenericEvent<O> = { object };
    if (predicates.every((p) => p.generic(event))) handler.generic?.(event, queue);
  };
  return {
    send(object) {
      if (!started) {
        pending.push(object);
        return;
      }
      for (const queue of queues) deliver(object, queue);
    },
    start(queue, signal) {
      if (signal.aborted) return;
      started = true;
      queues.add(queue);
      signal.addEventListener('abort', () => queues.delete(queue), { once: true });
      for (const object of pending.splice(0)) deliver(object, queue);
    },
  };
}
