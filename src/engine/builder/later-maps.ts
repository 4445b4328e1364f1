import type { KubernetesKind } from '../resource/definition.js';
import { pointerKey, type Pointer } from '../resource/pointer.js';
import type { ControllerReader } from '../runtime/controller.js';
import type { ReadOnlyClient } from './handlers.js';
import type { ObjectLike } from './events.js';
import type { Request } from './reconciler.js';

/**
 * A read-only client that exists before the controller's facade does: map functions run from the
 * first events on, the facade arrives with the first reconcile. Reads made before then wait for it.
 */
export interface LateClient {
  readonly reader: ReadOnlyClient;
  bind(reader: ControllerReader): void;
}

export function createLateClient(
  kubernetesKind?: (type: string) => KubernetesKind | undefined,
): LateClient {
  let bound: ControllerReader | undefined;
  let resolve: (reader: ControllerReader) => void = () => undefined;
  const ready = new Promise<ControllerReader>((r) => (resolve = r));
  const get = (): Promise<ControllerReader> => (bound ? Promise.resolve(bound) : ready);
  return {
    // Only the reads: a map function looks things up, it never writes.
    reader: {
      get: async (pointer) => (await get()).get(pointer),
      find: async (pointer) => (await get()).find(pointer),
      list: async (kind, options) => (await get()).list(kind, options),
      // Known from the start: an owner handler asks it on the first events.
      kubernetesKind: (type) => kubernetesKind?.(type),
    },
    bind(reader) {
      if (bound) return;
      bound = reader;
      resolve(reader);
    },
  };
}

interface LaterMap {
  pending: Promise<readonly Request[]> | undefined;
  readonly retry: () => Promise<readonly Request[]>;
  readonly toPointer: (request: Request) => Pointer;
}

/**
 * Async map functions, run as work items of the controller's own queue: each gets a pointer of
 * its own (type `map(<type>)`, id `<object id>#<n>`) that the queue reconciles like any other
 * key. So convergence waits for a map that has not resolved, a failing one is retried with the
 * controller's backoff and shows in the report, and nothing in the engine had to learn about
 * promises in event routing.
 */
export interface LaterMaps {
  /** Registers a map in flight; returns the pointer to queue for it. */
  add(
    about: ObjectLike,
    pending: Promise<readonly Request[]>,
    retry: () => Promise<readonly Request[]>,
    toPointer: (request: Request) => Pointer,
  ): Pointer;
  has(pointer: Pointer): boolean;
  /** Waits for the map (or runs it again after a failure) and queues its requests. */
  run(pointer: Pointer): Promise<void>;
  /** Where the requests go; until then they are kept. */
  attach(enqueue: (pointer: Pointer) => void): void;
}

export function createLaterMaps(): LaterMaps {
  const maps = new Map<string, LaterMap>();
  const held: Pointer[] = [];
  let enqueue: ((pointer: Pointer) => void) | undefined;
  let seq = 0;
  return {
    add(about, pending, retry, toPointer) {
      const md = about.metadata;
      const pointer = { namespace: md.namespace, type: `map(${md.type})`, id: `${md.id}#${++seq}` };
      // Handled here so that a rejection before the queue gets to it is not reported as unhandled.
      pending.catch(() => undefined);
      maps.set(pointerKey(pointer), { pending, retry, toPointer });
      return pointer;
    },
    has: (pointer) => maps.has(pointerKey(pointer)),
    async run(pointer) {
      const key = pointerKey(pointer);
      const map = maps.get(key);
      if (!map) return;
      let requests: readonly Request[];
      try {
        requests = await (map.pending ?? map.retry());
      } catch (error) {
        map.pending = undefined;
        throw error;
      }
      // A malformed request fails the mapping as a rejection does: nothing of it is queued, and
      // the map is kept to be retried.
      let targets: Pointer[];
      try {
        targets = requests.map((request) => map.toPointer(request));
      } catch (error) {
        map.pending = undefined;
        throw error;
      }
      maps.delete(key);
      for (const target of targets) {
        if (enqueue) enqueue(target);
        else held.push(target);
      }
    },
    attach(fn) {
      enqueue = fn;
      for (const pointer of held.splice(0)) fn(pointer);
    },
  };
}
