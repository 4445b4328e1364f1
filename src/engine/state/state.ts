import type { LabelQuery, IdQuery } from '../resource/label-query.js';
import type { Phase } from '../resource/metadata.js';
import type { Kind, Pointer } from '../resource/pointer.js';
import type { Draft, Resource } from '../resource/resource.js';

/**
 * What a watch delivers. `destroyed` carries the last stored state (or, from `watch` on a
 * resource that does not exist, a tombstone: see `isTombstone`). `bootstrapped` ends the initial
 * contents of a `watchKind` with `bootstrap: true`. `errored` ends a watch.
 */
export type StateEvent =
  | ResourceEvent
  | { readonly type: 'bootstrapped'; readonly kind: Kind }
  | { readonly type: 'errored'; readonly error: Error };

/** A change of one resource: the state events that carry a resource, what the runtime routes. */
export type ResourceEvent =
  | { readonly type: 'created'; readonly resource: Resource }
  | { readonly type: 'updated'; readonly resource: Resource; readonly old: Resource }
  | { readonly type: 'destroyed'; readonly resource: Resource };

export type StateEventType = StateEvent['type'];

export type WatchListener = (event: StateEvent) => void;

export interface ListOptions {
  /** OR-ed queries; terms inside one are AND-ed. */
  readonly labelQueries?: readonly LabelQuery[];
  readonly idQuery?: IdQuery;
}

export interface CreateOptions {
  /** Stamped on the stored resource; empty for a user's resource. */
  readonly owner?: string;
}

export interface UpdateOptions {
  /** Must equal the stored owner. */
  readonly owner?: string;
  /** The phase the stored resource must be in; `running` by default. */
  readonly expectedPhase?: Phase | 'any';
}

export interface OwnerOptions {
  readonly owner?: string;
}

export interface WatchOptions {
  /** Ends the watch. */
  readonly signal?: AbortSignal;
}

export interface WatchKindOptions extends WatchOptions, ListOptions {
  /** First one `created` per existing match (sorted by id), then `bootstrapped`. */
  readonly bootstrap?: boolean;
}

/** A function that changes a draft in place. */
export type Updater<S> = (draft: Draft<S>) => void | Promise<void>;

/**
 * The state: a versioned store of resources with owners, phases, finalizers and watches.
 * Every method is asynchronous so that any backend can implement it.
 */
export interface State {
  /** @throws NotFoundError */
  get<S = unknown>(pointer: Pointer): Promise<Resource<S>>;
  /** Sorted by id. */
  list<S = unknown>(kind: Kind, options?: ListOptions): Promise<Resource<S>[]>;
  /**
   * Stores a new resource at version 1 and returns it as stored.
   * @throws ConflictError (`exists`)
   */
  create<S>(resource: Draft<S> | Resource<S>, options?: CreateOptions): Promise<Resource<S>>;
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
  /** Create-or-update: `fn` fills `empty` when the resource is missing. */
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
  /** One resource: first its current state (`created`) or a tombstone (`destroyed`), then changes. */
  watch(pointer: Pointer, listener: WatchListener, options?: WatchOptions): Promise<void>;
  /** Every resource of a kind, optionally filtered; see {@link WatchKindOptions}. */
  watchKind(kind: Kind, listener: WatchListener, options?: WatchKindOptions): Promise<void>;
  /** Every namespace and type that holds at least one resource, sorted by type, then namespace. */
  kinds(): Promise<Kind[]>;
  /**
   * Optional, for backends that can answer synchronously: the stored version of a resource, 0 if
   * it does not exist. The runtime uses it to tell writes from no-ops cheaply.
   */
  peekVersion?(pointer: Pointer): number;
}
