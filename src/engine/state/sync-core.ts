import type { Pointer } from '../resource/pointer.js';
import type { Draft, Resource } from '../resource/resource.js';
import type { UpdateOptions, Updater } from './state.js';

/**
 * The one optional capability of a {@link StateCore}: answering synchronously. A core that holds
 * its resources in this process (the in-memory one) offers it; a core behind I/O (etcd) cannot.
 * It is checked once where it is used, with {@link isSyncCore}: by `wrapCore`, whose `modify`
 * then costs no turn of the microtask queue beyond its own promise, and by the runtime's
 * controller facade, which tells writes from no-ops by a peek instead of a second read.
 *
 * Not part of the public `State`: a fast path, not a contract users write against.
 */
export interface SyncCore {
  /** The stored version of a resource, 0 if it does not exist. */
  peekVersion(pointer: Pointer): number;
  /**
   * `modifyWithResult`, answered with the stored resource itself (no promise) when `fn` is
   * synchronous, and with a promise when `fn` returns one. It throws what `modifyWithResult`
   * would reject with.
   *
   * With `progress`, the core notes there how far `fn` got (see {@link ModifyProgress}): the
   * runtime counts a controller's writes by it without wrapping `fn` in a closure per call.
   */
  modifyNow<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options?: UpdateOptions,
    progress?: ModifyProgress,
  ): Resource<S> | Promise<Resource<S>>;
}

/** How far the updater of a {@link SyncCore.modifyNow} got, noted by the core as it runs it. */
export interface ModifyProgress {
  /** The version of the draft `fn` was handed last (0: a create); `undefined` until it is called. */
  handed: number | undefined;
  /** `fn` ran to the end at least once (and the promise it returned, if any, resolved). */
  applied: boolean;
}

/** Whether a core (or a state that forwards its core's capability) can answer synchronously. */
export function isSyncCore<T extends object>(value: T): value is T & SyncCore {
  const candidate = value as Partial<SyncCore>;
  return typeof candidate.peekVersion === 'function' && typeof candidate.modifyNow === 'function';
}
