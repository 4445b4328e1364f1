import type { Kind, Pointer } from '../resource/pointer.js';
import type { Draft, Resource } from '../resource/resource.js';
import type {
  CreateOptions,
  ListOptions,
  OwnerOptions,
  UpdateOptions,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from './state.js';
import type { Delivery } from './watch-delivery.js';

/**
 * What a storage backend implements (COSI's `CoreState`): the primitives, each with the meaning
 * it has on {@link State}. Everything derived from them (modify with retries, teardown, finalizer
 * changes, teardown-and-destroy) is written once, over any core, by `wrapCore`.
 *
 * The wrapper checks the watch options (tail, bookmark and bootstrap that exclude each other)
 * before a core sees them, and sorts what `kinds` returns; a core checks everything else (owner,
 * version, phase, finalizers: see write-checks.ts). A core may also offer the synchronous fast
 * path, {@link SyncCore}.
 */
export interface StateCore {
  /** @throws NotFoundError */
  get(pointer: Pointer): Promise<Resource>;
  /** Sorted by id. */
  list(kind: Kind, options?: ListOptions): Promise<Resource[]>;
  /** @throws ConflictError (`exists`) */
  create(resource: Draft | Resource, options?: CreateOptions): Promise<Resource>;
  /** @throws NotFoundError, ConflictError (`version`, `owner`, `phase`) */
  update(resource: Draft | Resource, options?: UpdateOptions): Promise<Resource>;
  /** @throws NotFoundError, ConflictError (`pending-finalizers`, `owner`) */
  destroy(pointer: Pointer, options?: OwnerOptions): Promise<void>;
  watch(pointer: Pointer, listener: WatchListener, options?: WatchOptions): Promise<void>;
  /**
   * `watchKind` and `watchKindAggregated` in one: the delivery says which (and, one by one,
   * whether the watcher asked for `inline`).
   */
  watchKind(kind: Kind, delivery: Delivery, options?: WatchKindOptions): Promise<void>;
  /** Every namespace and type that holds at least one resource, in any order. */
  kinds(): Promise<Kind[]>;
  /**
   * Optional, for a core behind I/O: the last version of a resource this process saw (by a
   * read, a write or a watch event), without asking the backend; `undefined` if it saw none.
   * It may be stale. The wrapper starts a `modify` or a finalizer change from it instead of a
   * read, and the write (compare-and-swap on that version) fails as a conflict if it was stale;
   * only then, or when nothing would change, does it read. An in-memory core has no use for it.
   */
  lastSeen?(pointer: Pointer): Resource | undefined;
}
