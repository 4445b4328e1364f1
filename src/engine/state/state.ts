import type { LabelQuery, IdQuery } from '../resource/label-query.js';
import type { Phase } from '../resource/metadata.js';
import type { Kind, Pointer, TypedKind, TypedPointer } from '../resource/pointer.js';
import type { Creatable, Draft, Resource } from '../resource/resource.js';

/**
 * Where a watch stands in the history of one kind: opaque, handed out on events, and accepted by
 * `startFromBookmark` to resume a watch right after that event. A bookmark is only valid on the
 * state that issued it, and only while its event is still in that state's history.
 */
export type Bookmark = string;

/**
 * What a watch delivers. `destroyed` carries the last stored state (or, from `watch` on a
 * resource that does not exist, a tombstone: see `isTombstone`). `bootstrapped` ends the initial
 * contents of a `watchKind` with `bootstrap: true`; `noop` carries nothing but a bookmark
 * (`bootstrapBookmark: true`). `errored` ends a watch: the subscriber fell too far behind (a
 * buffer overrun) and events were lost, so it must start over (list again, or watch with
 * `bootstrap`).
 */
export type StateEvent =
  | ResourceEvent
  | { readonly type: 'bootstrapped'; readonly kind: Kind; readonly bookmark?: Bookmark }
  | { readonly type: 'noop'; readonly kind: Kind; readonly bookmark: Bookmark }
  | { readonly type: 'errored'; readonly error: Error };

/**
 * A change of one resource: the state events that carry a resource, what the runtime routes.
 * Changes read from the history carry the `bookmark` to resume after them; the initial events
 * of a watch (current state, tombstone, bootstrap contents) carry none.
 */
export type ResourceEvent =
  | { readonly type: 'created'; readonly resource: Resource; readonly bookmark?: Bookmark }
  | {
      readonly type: 'updated';
      readonly resource: Resource;
      readonly old: Resource;
      readonly bookmark?: Bookmark;
    }
  | { readonly type: 'destroyed'; readonly resource: Resource; readonly bookmark?: Bookmark };

/** The `type` of a {@link StateEvent}. */
export type StateEventType = StateEvent['type'];

/** Whether an event is a change of a resource (`created`, `updated`, `destroyed`). */
export function isResourceEvent(event: StateEvent): event is ResourceEvent {
  return event.type === 'created' || event.type === 'updated' || event.type === 'destroyed';
}

/**
 * Receives the events of a watch, one at a time, in order. A listener may return a promise (any
 * other return value is ignored): the next event waits for it, and what happens meanwhile piles
 * up in the state's buffer; a subscriber that falls more than the buffer's capacity behind gets
 * `errored` and the watch ends. This is how a slow consumer is told it lost events.
 */
export type WatchListener = (event: StateEvent) => unknown;

/**
 * Receives the events of a watch in batches: everything that piled up since the last batch, in
 * order. A returned promise is waited for, as with {@link WatchListener}.
 */
export type AggregatedWatchListener = (events: readonly StateEvent[]) => unknown;

/** Which resources of a kind `State.list` returns: label, id and owner queries. */
export interface ListOptions {
  /** OR-ed queries; terms inside one are AND-ed. */
  readonly labelQueries?: readonly LabelQuery[];
  readonly idQuery?: IdQuery;
  /**
   * Only the resources this controller wrote (their `metadata.owner`); `''` for users'
   * resources. AND-ed with the other filters.
   */
  readonly owner?: string;
}

/** Options of `State.create`. */
export interface CreateOptions {
  /** Stamped on the stored resource; empty for a user's resource. */
  readonly owner?: string;
}

/** Options of `State.update`: the owner written as and the phase expected. */
export interface UpdateOptions {
  /** Must equal the stored owner. */
  readonly owner?: string;
  /** The phase the stored resource must be in; `running` by default. */
  readonly expectedPhase?: Phase | 'any';
}

/** The owner a write acts as (empty: the user's own resources). */
export interface OwnerOptions {
  readonly owner?: string;
}

/** Options of `State.watch`: when it ends and where it starts. */
export interface WatchOptions {
  /** Ends the watch. */
  readonly signal?: AbortSignal;
  /**
   * Instead of the current state, replay the last `n` changes of the resource still in the
   * history, then go on. Not with `startFromBookmark`.
   */
  readonly tailEvents?: number;
  /**
   * Instead of the current state, replay every change after the bookmarked one, then go on.
   * @throws InvalidBookmarkError when the bookmark is not from this state or is too old.
   */
  readonly startFromBookmark?: Bookmark;
}

/** Options of `State.watchKind`: a watch's options, a list's filters, and bootstrap. */
export interface WatchKindOptions extends WatchOptions, ListOptions {
  /**
   * First one `created` per existing match (sorted by id), then `bootstrapped`. Not with
   * `tailEvents` or `startFromBookmark`.
   */
  readonly bootstrap?: boolean;
  /** First a `noop` carrying the bookmark of the watch's starting point. */
  readonly bootstrapBookmark?: boolean;
  /**
   * The watcher never resumes from a bookmark: the state may hand it changes without one, and
   * save making a bookmark per change while no other watcher of the kind reads them. The
   * runtime's own watches are of this kind.
   */
  readonly skipBookmarks?: boolean;
  /**
   * While the watcher has nothing queued, hand it each change synchronously, inside the write
   * that made it, rather than in a later microtask: for a listener that only takes note of a
   * change and returns (the runtime's own watches). It may read and write the state; a change it
   * writes reaches every watcher after the one it was handed. A state may deliver later anyway
   * (the etcd state does).
   */
  readonly inline?: boolean;
  /**
   * Replay the last `n` changes of the kind still in the history (counted before the filters;
   * at most the history's usable depth), then go on.
   */
  readonly tailEvents?: number;
}

/** A function that changes a draft in place. */
export type Updater<S> = (draft: Draft<S>) => void | Promise<void>;

/**
 * The state: a versioned store of resources with owners, phases, finalizers and watches.
 * Every method is asynchronous so that any backend can implement it.
 */
export interface State {
  /**
   * Typed by a typed pointer (`state.get(VM.pointer('web-1'))`: `Resource<VMSpec>`).
   * @throws NotFoundError
   */
  get<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S>>;
  /**
   * Sorted by id. A backend should answer a label equality query (`labelEqual`, `labelIn`) and
   * an `owner` filter from an index, at a cost in proportion to what it returns: controllers
   * ask "the resources with this label" on every reconcile.
   */
  list<S = unknown>(kind: TypedKind<S>, options?: ListOptions): Promise<Resource<S>[]>;
  /**
   * Stores a new resource at version 1 and returns it as stored.
   * @throws ConflictError (`exists`)
   */
  create<S>(resource: Creatable<S>, options?: CreateOptions): Promise<Resource<S>>;
  /**
   * Replaces a resource. The given version must equal the stored one; the owner must match; the
   * stored phase must be the expected one. Returns the stored resource (version + 1).
   */
  update<S>(resource: Draft<S> | Resource<S>, options?: UpdateOptions): Promise<Resource<S>>;
  /**
   * Reads, applies `fn` to a draft and writes it, unless nothing changed; retries on version
   * conflicts. The phase is checked even when nothing changes.
   */
  updateWithConflicts<S = unknown>(
    pointer: Pointer,
    fn: Updater<S>,
    options?: UpdateOptions,
  ): Promise<Resource<S>>;
  /**
   * Create-or-update: `fn` fills `empty` when the resource is missing (the in-memory state hands
   * it `empty`'s own metadata, as COSI hands its updaters `empty` itself, with a copy of the
   * spec; metadata frozen anywhere is copied). The stored resource is always the state's own
   * copy: nothing of `empty` is kept, stamped or frozen.
   */
  modify<S>(empty: Draft<S>, fn: Updater<S>, options?: UpdateOptions): Promise<void>;
  /** `modify` that returns the resulting resource. */
  modifyWithResult<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options?: UpdateOptions,
  ): Promise<Resource<S>>;
  /** Moves a resource to `tearingDown`; true when it has no finalizers left. */
  teardown(pointer: Pointer, options?: OwnerOptions): Promise<boolean>;
  /** @throws ConflictError (`pending-finalizers`, `owner`) */
  destroy(pointer: Pointer, options?: OwnerOptions): Promise<void>;
  /** Any phase, any owner. */
  addFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void>;
  removeFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void>;
  /** Tears down, waits for the finalizers to go, then destroys. */
  teardownAndDestroy(pointer: Pointer, options?: OwnerOptions): Promise<void>;
  /**
   * One resource: first its current state (`created`) or a tombstone (`destroyed`), then changes;
   * with `tailEvents` or `startFromBookmark`, changes from the history instead of the current
   * state. Every change carries a bookmark. A watcher that falls too far behind gets `errored`
   * and the watch ends.
   * @throws InvalidBookmarkError for a bookmark this state cannot resume from.
   */
  watch(pointer: Pointer, listener: WatchListener, options?: WatchOptions): Promise<void>;
  /**
   * Every resource of a kind, optionally filtered; see {@link WatchKindOptions}. Changes carry
   * bookmarks, and a watcher that falls too far behind gets `errored`, as with `watch`.
   * @throws InvalidBookmarkError for a bookmark this state cannot resume from.
   */
  watchKind(kind: Kind, listener: WatchListener, options?: WatchKindOptions): Promise<void>;
  /**
   * `watchKind` that delivers batches (COSI's `WatchKindAggregated`): every event that piled up
   * since the last batch, in order; the same options and the same events.
   */
  watchKindAggregated(
    kind: Kind,
    listener: AggregatedWatchListener,
    options?: WatchKindOptions,
  ): Promise<void>;
  /** Every namespace and type that holds at least one resource, sorted by type, then namespace. */
  kinds(): Promise<Kind[]>;
  /**
   * Optional, for a state behind I/O (etcd): the last version of a resource this process saw
   * (by a read, a write or a watch event) without asking the backend, `undefined` when it saw
   * none. It may be stale: what is decided on it must be written with a compare-and-swap, or
   * be corrected by the events still to come. The in-memory state answers `undefined`.
   */
  lastSeen?(pointer: Pointer): Resource | undefined;
}
