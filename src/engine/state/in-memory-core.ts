import { compareStrings } from '../compare-strings.js';
import {
  ALL_NAMESPACES,
  toPointer,
  type Kind,
  type Pointer,
  type TypedKind,
  type TypedPointer,
} from '../resource/pointer.js';
import { freezeMetadata, metadataEqual, type MutableMetadata } from '../resource/metadata.js';
import { freezeSharing } from '../resource/plain-data.js';
import { nextGeneration } from '../resource/generation.js';
import { isThenable } from '../is-thenable.js';
import {
  draftOfEmpty,
  storedCopy,
  storedFromDraft,
  toDraft,
  type AnyResource,
  type Draft,
  type Resource,
} from '../resource/resource.js';
import { alreadyExists, checkUpdaterDraft, isRetryableConflict, NotFoundError } from '../errors.js';
import type {
  CreateOptions,
  ListOptions,
  OwnerOptions,
  ResourceEvent,
  UpdateOptions,
  Updater,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from './state.js';
import type { StateCore } from './state-core.js';
import type { ModifyProgress, SyncCore } from './sync-core.js';
import {
  checkCreatedNamespace,
  checkDestroy,
  checkOwner,
  checkPhase,
  checkUpdate,
} from './write-checks.js';
import { CollectionIndex } from './collection-index.js';
import { EventHistory } from './event-history.js';
import { IdOrder } from './id-order.js';
import { createTombstone } from './tombstone.js';
import { filterEvent, hasFilters, matchesFilters } from './watch-filters.js';
import type { Delivery } from './watch-delivery.js';
import { WatchSubscription } from './watch-subscription.js';

/** Options of `createInMemoryState`. */
export interface InMemoryStateOptions {
  /** Timestamps for `created` / `updated`, in ms since the epoch. Defaults to `Date.now`. */
  readonly now?: () => number;
  /** Told about listeners that throw; the store and the other listeners carry on regardless. */
  readonly onListenerError?: (error: unknown) => void;
  /**
   * How many recent changes each kind keeps (COSI's history capacity): the depth of
   * `tailEvents` and bookmarks, and how far a watcher may fall behind before its watch ends
   * with `errored`. Defaults to {@link DEFAULT_HISTORY_CAPACITY}.
   */
  readonly historyCapacity?: number;
  /**
   * A margin at the old end of the history that tails and resumed watches never start in, so
   * that they do not overrun at once (COSI's history gap). Defaults to 5% of the capacity.
   */
  readonly historyGap?: number;
}

/**
 * The default history depth per kind. Far above COSI's 100: here a watcher only lags while
 * writes run without yielding (a synchronous burst) or while its own listener's promise is
 * pending, and a burst of a few thousand writes (loading a large project) must not end the
 * runtime's watches.
 */
export const DEFAULT_HISTORY_CAPACITY = 10_000;

interface Collection extends Watchers {
  readonly kind: Kind;
  /**
   * In the order lists return them, once a list has asked (see {@link IdOrder}): a list may
   * replace this map with a sorted copy, so nothing keeps a reference to it across a list.
   */
  items: Map<string, Resource>;
  /** Ids by label value and by owner, for the lists that ask for them. */
  readonly index: CollectionIndex;
  /** Keeps `items` in the order lists return the ids in. */
  readonly order: IdOrder;
  readonly history: EventHistory;
  /** With the filters of each watch. */
  readonly kindWatchers: Map<WatchSubscription, ListOptions>;
  /** How many of the kind watchers read bookmarks (all but those with `skipBookmarks`). */
  bookmarkReaders: number;
  /** By id. */
  readonly pointerWatchers: Map<string, Set<WatchSubscription>>;
}

/**
 * The watches of a type in every namespace ({@link ALL_NAMESPACES}): a history of their own, of
 * the changes of the type in any namespace, kept only while one of them watches, so a type
 * nobody watches so pays nothing more per write.
 */
interface AllNamespacesWatch extends Watchers {
  readonly history: EventHistory;
}

/** Who a change is handed out to: a collection's watchers, or those of a type in every namespace. */
interface Watchers {
  /** With the filters of each watch. */
  readonly kindWatchers: Map<WatchSubscription, ListOptions>;
  /** By id. */
  readonly pointerWatchers: Map<string, Set<WatchSubscription>>;
}

/** A watch of every namespace is of a kind: no watcher of one resource comes through it. */
const NO_POINTER_WATCHERS: ReadonlyMap<string, Set<WatchSubscription>> = new Map();

/** Tells the bookmarks of different states apart (and of the same state across restarts). */
let stateSerial = 0;

/**
 * The in-memory {@link StateCore}: resources are stored frozen and returned without copying. It
 * answers synchronously ({@link SyncCore}): `modifyNow`, and the `peekVersion` the controller
 * facade tells writes from no-ops by. `wrapCore` derives the rest of the state from it.
 */
export class InMemoryCore implements StateCore, SyncCore {
  /** By type, then namespace: no key strings to build on the hot path. */
  readonly #collections = new Map<string, Map<string, Collection>>();
  /** By type: the watches of a type in every namespace, while there are any. */
  readonly #allNamespaces = new Map<string, AllNamespacesWatch>();
  /**
   * The collection found last, and its kind. Writes and reads come in runs on one kind (a
   * controller writing its outputs one after the other), and each would otherwise cost two map
   * lookups, several times per write. Collections are never removed, so it never goes stale.
   */
  #lastType = '';
  #lastNamespace = '';
  #lastCollection: Collection | undefined = undefined;
  readonly #now: () => number;
  readonly #onListenerError: (error: unknown) => void;
  readonly #historyCapacity: number;
  readonly #historyGap: number;
  readonly #bookmarkPrefix: string;
  #collectionSerial = 0;
  /** Counts every change to `items`, so that a remembered lookup knows when it went stale. */
  #writes = 0;
  /** Set while {@link #publish} hands a change out; changes written meanwhile wait in `#written`. */
  #handingOut = false;
  readonly #written: WrittenMeanwhile[] = [];
  /** The last {@link peekVersion}: which resource it looked up, what it found, and when. */
  #peekedNamespace = '';
  #peekedType = '';
  #peekedId = '';
  #peekedResource: Resource | undefined = undefined;
  #peekedAt = -1;

  constructor(options: InMemoryStateOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#onListenerError = options.onListenerError ?? (() => undefined);
    const capacity = options.historyCapacity ?? DEFAULT_HISTORY_CAPACITY;
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError(`historyCapacity must be a positive integer, got ${capacity}`);
    }
    const gap = options.historyGap ?? Math.floor(capacity / 20);
    if (!Number.isSafeInteger(gap) || gap < 0 || gap >= capacity) {
      throw new RangeError(
        `historyGap must be an integer from 0 to historyCapacity - 1 (${capacity - 1}), got ${gap}`,
      );
    }
    this.#historyCapacity = capacity;
    this.#historyGap = gap;
    // A random part too: a bookmark kept across a restart of the process must not resume.
    this.#bookmarkPrefix = `${Math.random().toString(36).slice(2, 10)}${(stateSerial++).toString(36)}.`;
  }

  async get<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S>> {
    return this.#get(pointer) as Resource<S>;
  }

  async list<S = unknown>(kind: TypedKind<S>, options: ListOptions = {}): Promise<Resource<S>[]> {
    return this.#list(kind, options) as Resource<S>[];
  }

  async create<S>(
    resource: Draft<S> | Resource<S>,
    options: CreateOptions = {},
  ): Promise<Resource<S>> {
    const md = resource.metadata;
    checkCreatedNamespace(md);
    const collection = this.#collectionOf(md);
    if (collection.items.has(md.id)) throw alreadyExists(toPointer(md));
    // The caller keeps its resource: the state stores a frozen copy, stamped as it is made.
    const now = this.#now();
    const stored = storedCopy(resource, 1, 1, options.owner ?? '', now, now);
    this.#storeNew(collection, stored);
    return stored;
  }

  async update<S>(
    resource: Draft<S> | Resource<S>,
    options: UpdateOptions = {},
  ): Promise<Resource<S>> {
    const current = this.#checkUpdate(resource, options);
    const { version, owner, created } = current.metadata;
    const generation = nextGeneration(current, resource.spec, resource.metadata.phase);
    const stored = storedCopy(resource, version + 1, generation, owner, created, this.#now());
    this.#storeUpdate(stored, current);
    return stored;
  }

  modifyNow<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options: UpdateOptions = {},
    progress?: ModifyProgress,
  ): Resource<S> | Promise<Resource<S>> {
    return this.#modify(empty, fn as Updater<unknown>, options, progress) as
      Resource<S> | Promise<Resource<S>>;
  }

  async destroy(pointer: Pointer, options: OwnerOptions = {}): Promise<void> {
    this.#destroy(pointer, options);
  }

  async watch(
    pointer: Pointer,
    listener: WatchListener,
    options: WatchOptions = {},
  ): Promise<void> {
    // The options were checked by the wrapper (tail and bookmark exclude each other).
    const tail = Math.floor(options.tailEvents ?? 0);
    const { startFromBookmark } = options;
    const collection = this.#collectionOf(pointer);
    const { history } = collection;
    const { id } = pointer;
    let start = history.writePos;
    if (tail > 0) start = history.tailStartFor(id, tail);
    else if (startFromBookmark !== undefined) start = history.resumeAfter(startFromBookmark);

    let watchers = collection.pointerWatchers.get(id);
    const sub = this.#subscribe(
      collection,
      { aggregated: false, listener },
      options.signal,
      (sub) => {
        watchers?.delete(sub);
        if (watchers?.size === 0 && collection.pointerWatchers.get(id) === watchers) {
          collection.pointerWatchers.delete(id);
        }
      },
    );
    if (!sub) return;
    if (!watchers) collection.pointerWatchers.set(id, (watchers = new Set()));
    watchers.add(sub);
    sub.begin(start);
    if (tail > 0 || startFromBookmark !== undefined) {
      for (let position = start; position < history.writePos; position++) {
        if (history.resourceAt(position).metadata.id === id)
          sub.push(history.at(position), position);
      }
      return;
    }
    const current = this.#find(pointer);
    sub.pushInitial(
      current
        ? { type: 'created', resource: current }
        : { type: 'destroyed', resource: createTombstone(toPointer(pointer)) },
    );
  }

  /** Every namespace and type that holds at least one resource (the wrapper sorts them). */
  async kinds(): Promise<Kind[]> {
    const out: Kind[] = [];
    for (const [type, byNamespace] of this.#collections) {
      for (const [namespace, collection] of byNamespace) {
        if (collection.items.size > 0) out.push({ namespace, type });
      }
    }
    return out;
  }

  peekVersion(pointer: Pointer): number {
    const resource = this.#find(pointer);
    // Remembered for a modify of the same resource that follows before any write (the controller
    // facade peeks, then modifies): on a large kind each lookup is a cache miss or two.
    this.#peekedNamespace = pointer.namespace;
    this.#peekedType = pointer.type;
    this.#peekedId = pointer.id;
    this.#peekedResource = resource;
    this.#peekedAt = this.#writes;
    return resource?.metadata.version ?? 0;
  }

  // The synchronous core every asynchronous method goes through.

  #get(pointer: Pointer): Resource {
    const found = this.#find(pointer);
    if (!found) throw new NotFoundError(toPointer(pointer));
    return found;
  }

  #list(kind: Kind, options: ListOptions = {}): Resource[] {
    if (kind.namespace === ALL_NAMESPACES) return this.#listAllNamespaces(kind.type, options);
    const collection = this.#collection(kind);
    if (!collection) return [];
    const { items } = collection;
    const filtered = hasFilters(options);
    const candidates = filtered ? collection.index.candidates(options, items) : undefined;
    // Few candidates: sort them alone rather than walk the whole kind in order.
    if (candidates !== undefined && candidates.size * 8 < items.size) {
      const out: Resource[] = [];
      for (const id of candidates) {
        const resource = items.get(id) as Resource;
        if (matchesFilters(resource, options)) out.push(resource);
      }
      return out.sort(byId);
    }
    const sorted = collection.order.sorted(items);
    let values: Iterable<Resource>;
    if (sorted instanceof Map) {
      // In sorted order (rebuilt so if creates out of order broke it): walked as it is, with no
      // lookup per id. V8 copies a map's values into an array natively, faster than a loop.
      collection.items = sorted;
      if (!filtered) return [...sorted.values()];
      values = sorted.values();
    } else {
      // A new array, the ids out of order merged in: the list itself when nothing filters.
      if (!filtered) return sorted;
      values = sorted;
    }
    const out: Resource[] = [];
    for (const resource of values) {
      if (candidates !== undefined && !candidates.has(resource.metadata.id)) continue;
      if (!matchesFilters(resource, options)) continue;
      out.push(resource);
    }
    return out;
  }

  /** The type in every namespace, sorted by namespace, then id. */
  #listAllNamespaces(type: string, options: ListOptions): Resource[] {
    const byNamespace = this.#collections.get(type);
    if (!byNamespace) return [];
    const namespaces = [...byNamespace.keys()].sort(compareStrings);
    const out: Resource[] = [];
    for (const namespace of namespaces) {
      for (const resource of this.#list({ namespace, type }, options)) out.push(resource);
    }
    return out;
  }

  /** Stores a draft from {@link draftOfEmpty} as a new resource. */
  #create(draft: Draft, owner: string, knownMissing = false): Resource {
    const md = draft.metadata;
    checkCreatedNamespace(md);
    const collection = this.#collectionOf(md);
    if (!knownMissing && collection.items.has(md.id)) throw alreadyExists(toPointer(md));
    const now = this.#now();
    const stored = storedFromDraft(draft, 1, 1, owner, now, now);
    this.#storeNew(collection, stored);
    return stored;
  }

  /** Stores the first version of a resource, its id known to be free. */
  #storeNew(collection: Collection, stored: Resource): void {
    const { id } = stored.metadata;
    this.#writes++;
    collection.items.set(id, stored);
    collection.index.update(id, undefined, stored);
    collection.order.added(id);
    this.#publish(collection, 'created', stored);
  }

  // The read-modify-write loops. They return a value, not a promise, while `fn` is synchronous
  // (the usual kind), so that a write costs one promise (the public method's) and no extra turns
  // of the microtask queue. A conflict can only come from a write while an asynchronous `fn` ran.

  // `progress` (a `modifyNow` caller's) is told what `fn` was handed and when it ran to the end.

  #updateWithConflicts(
    pointer: Pointer,
    fn: Updater<unknown>,
    options: UpdateOptions,
    progress?: ModifyProgress,
    current = this.#get(pointer),
  ): Resource | Promise<Resource> {
    checkPhase(current, options);
    const draft = toDraft(current);
    const readAt = this.#writes;
    if (progress) progress.handed = draft.metadata.version;
    // An arrow function may return what it assigned: only a thenable is waited for.
    const pending: unknown = fn(draft);
    if (!isThenable(pending)) {
      if (progress) progress.applied = true;
      return this.#finishUpdate(current, readAt, draft, pointer, fn, options, progress);
    }
    return Promise.resolve(pending).then(() => {
      if (progress) progress.applied = true;
      return this.#finishUpdate(current, readAt, draft, pointer, fn, options, progress);
    });
  }

  /** `readAt`: the write count when `current` was read; unchanged, `current` is still stored. */
  #finishUpdate(
    current: Resource,
    readAt: number,
    draft: Draft,
    pointer: Pointer,
    fn: Updater<unknown>,
    options: UpdateOptions,
    progress: ModifyProgress | undefined,
  ): Resource | Promise<Resource> {
    checkUpdaterDraft(current.metadata, draft.metadata);
    // Freezing and comparing in one walk; what did not change is shared with `current`.
    draft.spec = freezeSharing(draft.spec, current.spec);
    if (draft.spec === current.spec && metadataEqual(current.metadata, draft.metadata)) {
      return current;
    }
    try {
      return this.#update(draft, options, readAt === this.#writes ? current : undefined);
    } catch (error) {
      if (isRetryableConflict(error)) {
        return this.#updateWithConflicts(pointer, fn, options, progress);
      }
      throw error;
    }
  }

  #modify(
    empty: Draft,
    fn: Updater<unknown>,
    options: UpdateOptions,
    progress?: ModifyProgress,
  ): Resource | Promise<Resource> {
    const pointer = empty.metadata;
    // One lookup decides create or update; a peek just before (the controller facade's) answers.
    const current = this.#peekedBefore(pointer) ? this.#peekedResource : this.#find(pointer);
    if (current) return this.#updateWithConflicts(pointer, fn, options, progress, current);
    const draft = draftOfEmpty(empty);
    // The draft may be `empty`'s own metadata: what was asked for is noted before `fn` runs, so
    // that a renamed draft is refused as on an update, not created elsewhere (over what is there).
    const asked = {
      namespace: pointer.namespace,
      type: pointer.type,
      id: pointer.id,
      version: draft.metadata.version,
    };
    if (progress) progress.handed = draft.metadata.version;
    const pending: unknown = fn(draft);
    if (!isThenable(pending)) {
      if (progress) progress.applied = true;
      checkUpdaterDraft(asked, draft.metadata);
      // A synchronous `fn` let nobody write in between: the id is still free.
      return this.#create(draft, options.owner ?? '', true);
    }
    return Promise.resolve(pending).then(() => {
      if (progress) progress.applied = true;
      checkUpdaterDraft(asked, draft.metadata);
      return this.#finishCreate(empty, draft, fn, options, progress);
    });
  }

  #finishCreate(
    empty: Draft,
    draft: Draft,
    fn: Updater<unknown>,
    options: UpdateOptions,
    progress: ModifyProgress | undefined,
  ): Resource | Promise<Resource> {
    try {
      return this.#create(draft, options.owner ?? '', false);
    } catch (error) {
      // Someone created it while `fn` ran: update it instead.
      if (isRetryableConflict(error)) return this.#modify(empty, fn, options, progress);
      throw error;
    }
  }

  #checkUpdate(resource: AnyResource, options: UpdateOptions): Resource {
    const md = resource.metadata;
    const current = this.#find(md);
    if (!current) throw new NotFoundError(toPointer(md));
    checkUpdate(current, md.version, options);
    return current;
  }

  /**
   * Writes a draft the state owns, after the owner, version and phase checks. Its spec is frozen
   * already (by `freezeSharing`, or the stored spec itself, shared): only its metadata and the
   * draft are left to freeze. `read`: the stored resource the draft was made from, when nothing
   * was written since: its version and phase were checked then, and no second lookup is needed.
   */
  #update(draft: Draft, options: UpdateOptions, read?: Resource): Resource {
    const current =
      read === undefined ? this.#checkUpdate(draft, options) : checkOwner(read, options);
    const md = draft.metadata;
    md.version = current.metadata.version + 1;
    md.generation = nextGeneration(current, draft.spec, md.phase);
    md.owner = current.metadata.owner;
    md.created = current.metadata.created;
    md.updated = this.#now();
    if (md.finalizers.length > 1 && !Object.isFrozen(md.finalizers)) {
      md.finalizers = [...new Set(md.finalizers)];
    }
    draft.metadata = freezeMetadata(md) as MutableMetadata;
    const stored = Object.freeze(draft) as Resource;
    this.#storeUpdate(stored, current);
    return stored;
  }

  /** Stores the next version of `current`, after the owner, version and phase checks. */
  #storeUpdate(stored: Resource, current: Resource): void {
    const collection = this.#collection(current.metadata) as Collection;
    const { id } = stored.metadata;
    this.#writes++;
    collection.items.set(id, stored);
    collection.index.update(id, current, stored);
    this.#publish(collection, 'updated', stored, current);
  }

  #destroy(pointer: Pointer, options: OwnerOptions = {}): void {
    const collection = this.#collection(pointer);
    const current = collection?.items.get(pointer.id);
    if (!collection || !current) throw new NotFoundError(toPointer(pointer));
    checkDestroy(current, options);
    this.#writes++;
    collection.items.delete(pointer.id);
    collection.index.update(pointer.id, current, undefined);
    collection.order.removed(pointer.id);
    this.#publish(collection, 'destroyed', current);
  }

  #collection(kind: Kind): Collection | undefined {
    if (kind.type === this.#lastType && kind.namespace === this.#lastNamespace) {
      return this.#lastCollection;
    }
    const collection = this.#collections.get(kind.type)?.get(kind.namespace);
    // Only a collection that exists is remembered: a miss must not shadow a later create.
    if (collection) this.#remember(collection);
    return collection;
  }

  #remember(collection: Collection): void {
    this.#lastType = collection.kind.type;
    this.#lastNamespace = collection.kind.namespace;
    this.#lastCollection = collection;
  }

  /** Whether the last peek was of `pointer`, with no write since. */
  #peekedBefore(pointer: Pointer): boolean {
    return (
      this.#peekedAt === this.#writes &&
      this.#peekedId === pointer.id &&
      this.#peekedType === pointer.type &&
      this.#peekedNamespace === pointer.namespace
    );
  }

  #find(pointer: Pointer): Resource | undefined {
    return this.#collection(pointer)?.items.get(pointer.id);
  }

  async watchKind(kind: Kind, delivery: Delivery, options: WatchKindOptions = {}): Promise<void> {
    // The options were checked by the wrapper (bootstrap, tail and bookmark exclude each other;
    // a watch of every namespace takes neither a tail nor a bookmark).
    if (kind.namespace === ALL_NAMESPACES) {
      this.#watchAllNamespaces(kind, delivery, options);
      return;
    }
    const tail = Math.floor(options.tailEvents ?? 0);
    const { startFromBookmark } = options;
    const collection = this.#collectionOf(kind);
    const { history } = collection;
    let start = history.writePos;
    if (tail > 0) start = history.tailStart(tail);
    else if (startFromBookmark !== undefined) start = history.resumeAfter(startFromBookmark);

    const readsBookmarks = options.skipBookmarks !== true;
    const sub = this.#subscribe(collection, delivery, options.signal, (sub) => {
      // Unregistered once, whether it ended by its signal, by falling behind, or both.
      if (collection.kindWatchers.delete(sub) && readsBookmarks) collection.bookmarkReaders--;
    });
    if (!sub) return;
    collection.kindWatchers.set(sub, options);
    if (readsBookmarks) collection.bookmarkReaders++;
    sub.begin(start);
    const markerKind = { namespace: kind.namespace, type: kind.type };
    if (options.bootstrap) {
      for (const resource of this.#list(kind, options)) {
        sub.pushInitial({ type: 'created', resource });
      }
      sub.pushInitial({
        type: 'bootstrapped',
        kind: markerKind,
        bookmark: history.bookmark(start - 1),
      });
    }
    if (options.bootstrapBookmark) {
      sub.pushInitial({ type: 'noop', kind: markerKind, bookmark: history.bookmark(start - 1) });
    }
    for (let position = start; position < history.writePos; position++) {
      deliverFiltered(sub, history.at(position), position, options);
    }
  }

  /** {@link watchKind} of a type in every namespace: from now, or from its contents on. */
  #watchAllNamespaces(kind: Kind, delivery: Delivery, options: WatchKindOptions): void {
    let all = this.#allNamespaces.get(kind.type);
    if (!all) {
      const prefix = `${this.#bookmarkPrefix}${(this.#collectionSerial++).toString(36)}.`;
      all = {
        history: new EventHistory(prefix, this.#historyCapacity, this.#historyGap),
        kindWatchers: new Map(),
        pointerWatchers: NO_POINTER_WATCHERS as Map<string, Set<WatchSubscription>>,
      };
      this.#allNamespaces.set(kind.type, all);
    }
    const watch = all;
    const marker = { namespace: ALL_NAMESPACES, type: kind.type };
    if (options.signal?.aborted) return;
    const sub = new WatchSubscription(
      marker,
      watch.history,
      delivery,
      this.#onListenerError,
      (sub) => {
        watch.kindWatchers.delete(sub);
        // The last one gone: the type's changes are no longer recorded twice.
        if (watch.kindWatchers.size === 0 && this.#allNamespaces.get(kind.type) === watch) {
          this.#allNamespaces.delete(kind.type);
        }
      },
    );
    options.signal?.addEventListener('abort', () => sub.close(), { once: true });
    watch.kindWatchers.set(sub, options);
    const start = watch.history.writePos;
    sub.begin(start);
    if (options.bootstrap) {
      for (const resource of this.#listAllNamespaces(kind.type, options)) {
        sub.pushInitial({ type: 'created', resource });
      }
      sub.pushInitial({ type: 'bootstrapped', kind: marker });
    }
  }

  #subscribe(
    collection: Collection,
    delivery: Delivery,
    signal: AbortSignal | undefined,
    unregister: (sub: WatchSubscription) => void,
  ): WatchSubscription | undefined {
    if (signal?.aborted) return undefined;
    const sub = new WatchSubscription(
      collection.kind,
      collection.history,
      delivery,
      this.#onListenerError,
      unregister,
    );
    signal?.addEventListener('abort', () => sub.close(), { once: true });
    return sub;
  }

  /** The collection of a kind, made empty on first use (a watch may come before any write). */
  #collectionOf(kind: Kind): Collection {
    const known = this.#collection(kind);
    if (known) return known;
    let byNamespace = this.#collections.get(kind.type);
    if (!byNamespace)
      this.#collections.set(kind.type, (byNamespace = new Map<string, Collection>()));
    let collection = byNamespace.get(kind.namespace);
    if (!collection) {
      const prefix = `${this.#bookmarkPrefix}${(this.#collectionSerial++).toString(36)}.`;
      collection = {
        kind: { namespace: kind.namespace, type: kind.type },
        items: new Map(),
        index: new CollectionIndex(),
        order: new IdOrder(),
        history: new EventHistory(prefix, this.#historyCapacity, this.#historyGap),
        kindWatchers: new Map(),
        bookmarkReaders: 0,
        pointerWatchers: new Map(),
      };
      byNamespace.set(kind.namespace, collection);
    }
    this.#remember(collection);
    return collection;
  }

  /**
   * Records a change in the kind's history and hands it to the watchers.
   *
   * An inline watcher's listener runs inside this (see {@link WatchKindOptions.inline}), and may
   * write: that change is recorded at once, but handed out only after the one being handed out
   * has reached every watcher, so that each watcher sees the changes in the order they were made.
   */
  #publish(
    collection: Collection,
    type: ResourceEvent['type'],
    resource: Resource,
    old?: Resource,
  ): void {
    const { history, kindWatchers, pointerWatchers } = collection;
    const position = history.append(type, resource, old);
    const all =
      this.#allNamespaces.size === 0 ? undefined : this.#allNamespaces.get(collection.kind.type);
    if (all !== undefined) {
      // The watches of the type in every namespace first, from their own history.
      const at = all.history.append(type, resource, old);
      this.#handOut(all, all.history.at(at, false), at);
    }
    // Nobody watches: no event to make.
    if (kindWatchers.size === 0 && pointerWatchers.size === 0) return;
    // One event for every watcher: with a bookmark when any of them may read it.
    const event = history.at(position, collection.bookmarkReaders > 0 || pointerWatchers.size > 0);
    this.#handOut(collection, event, position);
  }

  /** Hands a change out now, or, while another is being handed out, right after it. */
  #handOut(watchers: Watchers, event: ResourceEvent, position: number): void {
    if (this.#handingOut) {
      this.#written.push({ watchers, event, position });
      return;
    }
    this.#handingOut = true;
    try {
      handOut(watchers, event, position);
      const written = this.#written;
      for (let i = 0; i < written.length; i++) {
        const change = written[i] as WrittenMeanwhile;
        handOut(change.watchers, change.event, change.position);
      }
    } finally {
      this.#written.length = 0;
      this.#handingOut = false;
    }
  }
}

/** A change written by a listener while another was being handed out. */
interface WrittenMeanwhile {
  readonly watchers: Watchers;
  readonly event: ResourceEvent;
  readonly position: number;
}

/** Gives a change of the kind to its watchers (those that began before it was made). */
function handOut(watchers: Watchers, event: ResourceEvent, position: number): void {
  for (const [sub, filters] of watchers.kindWatchers) {
    if (sub.isLive(position)) deliverFiltered(sub, event, position, filters);
  }
  const { pointerWatchers } = watchers;
  if (pointerWatchers.size === 0) return;
  const subs = pointerWatchers.get(event.resource.metadata.id);
  if (subs) for (const sub of subs) if (sub.isLive(position)) sub.push(event, position);
}

/** Applies a watch's label, id and owner filters (see {@link filterEvent}). */
function deliverFiltered(
  sub: WatchSubscription,
  event: ResourceEvent,
  position: number,
  filters: ListOptions,
): void {
  const seen = filterEvent(event, filters);
  if (seen !== undefined) sub.push(seen, position);
}

const byId = (a: Resource, b: Resource): number => compareStrings(a.metadata.id, b.metadata.id);
