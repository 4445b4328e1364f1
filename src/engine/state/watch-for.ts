import { toError } from '../errors.js';
import type { Phase } from '../resource/metadata.js';
import type { Pointer } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import { isResourceEvent, type ResourceEvent, type State, type StateEvent } from './state.js';

/**
 * What {@link watchFor} waits for: every condition given must hold for the same event (COSI's
 * `WithEventTypes`, `WithCondition`, `WithPhases`, `WithFinalizerEmpty`). With none, the first
 * event matches.
 */
export interface WatchForConditions<S = unknown> {
  /** The event must be one of these. */
  readonly eventTypes?: readonly ResourceEvent['type'][];
  /** The resource must satisfy this; an error it throws rejects the wait. */
  readonly condition?: (resource: Resource<S>) => boolean;
  /** The resource must be in one of these phases. */
  readonly phases?: readonly Phase[];
  /** The resource must have no finalizers; a `destroyed` event never matches this. */
  readonly finalizersEmpty?: boolean;
  /** Gives up waiting: the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * Waits until an event of one resource matches every given condition, and returns the resource
 * of that event. It watches from the current state on, so a resource that already matches is
 * returned at once. Works over any {@link State} (as COSI's `WatchFor` works over any core
 * state).
 *
 * As in COSI, the current state of a missing resource is a `destroyed` event with a tombstone
 * (`isTombstone`), so `{ eventTypes: ['destroyed'] }` waits until the resource is gone, and a
 * condition without `eventTypes` may match that tombstone: give `eventTypes: ['created',
 * 'updated']` to wait for a resource that exists. Unlike COSI, a watch that ends with `errored`
 * rejects the wait instead of leaving it hanging.
 *
 * @example
 * // Wait until a VM exists and is ready, for at most 5 s.
 * const vm = await watchFor<VMSpec>(state, VM.pointer('web'), {
 *   eventTypes: ['created', 'updated'],
 *   condition: (r) => r.spec.ready,
 *   signal: AbortSignal.timeout(5000),
 * });
 */
export function watchFor<S = unknown>(
  state: State,
  pointer: Pointer,
  conditions: WatchForConditions<S> = {},
): Promise<Resource<S>> {
  const { signal } = conditions;
  return new Promise<Resource<S>>((resolve, reject) => {
    if (signal?.aborted) {
      reject(toError(signal.reason));
      return;
    }
    const watching = new AbortController();
    const onAbort = (): void => {
      settle(() => reject(toError(signal?.reason)));
    };
    const settle = (fn: () => void): void => {
      if (watching.signal.aborted) return;
      watching.abort();
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const listener = (event: StateEvent): void => {
      if (event.type === 'errored') {
        settle(() => reject(event.error));
        return;
      }
      let matched: boolean;
      try {
        matched = matches(event, conditions);
      } catch (error) {
        settle(() => reject(toError(error)));
        return;
      }
      if (matched && isResourceEvent(event)) settle(() => resolve(event.resource as Resource<S>));
    };
    state.watch(pointer, listener, { signal: watching.signal }).catch((error: unknown) => {
      settle(() => reject(toError(error)));
    });
  });
}

/** COSI's `WatchForCondition.Matches`: each condition given must hold. */
function matches<S>(event: StateEvent, conditions: WatchForConditions<S>): boolean {
  if (!isResourceEvent(event)) return false;
  const { eventTypes, condition, phases, finalizersEmpty } = conditions;
  if (eventTypes !== undefined && !eventTypes.includes(event.type)) return false;
  const { resource } = event;
  if (condition !== undefined && !condition(resource as Resource<S>)) return false;
  if (finalizersEmpty) {
    if (event.type === 'destroyed' || resource.metadata.finalizers.length > 0) return false;
  }
  if (phases !== undefined && !phases.includes(resource.metadata.phase)) return false;
  return true;
}
