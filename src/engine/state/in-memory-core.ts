import {
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
import { listKind } from './collection-list.js';
import { Collections, type Collection } from './memory-collections.js';
import { MemoryWatches } from './memory-watches.js';
import type { Delivery } from './watch-delivery.js';

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

/**
 * The in-memory {@link StateCore}: resources are stored frozen and returned without copying. It
 * answers synchronously ({@link SyncCore}): `modifyNow`, and the `peekVersion` the controller
 * facade tells writes from no-ops by. `wrapCore` derives the rest of the state from it.
 */
export class InMemoryCore implements StateCore, SyncCore {
  readonly #collections: Collections;
  readonly #watches: MemoryWatches;
  readonly #now: () => number;
  /** Counts every change to `items`, so that a remembered lookup knows when it went stale. */
  #writes = 0;
  /** The last {@link peekVersion}: which resource it looked up, what it found, and when. */
  #peekedNamespace = '';
  #peekedType = '';
  #peekedId = '';
  #peekedResource: Resource | undefined = undefined;
  #peekedAt = -1;

  constructor(options: InMemoryStateOptions = {}) {
    this.#now = options.now ?? Date.now;
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
    this.#collections = new Collections(capacity, gap);
    this.#watches = new MemoryWatches(
      this.#collections,
      options.onListenerError ?? (() => undefined),
    );
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
    const collection = this.#collections.of(md);
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
    this.#watches.watch(pointer, listener, options);
  }

  /** Every namespace and type that holds at least one resource (the wrapper sorts them). */
  async kinds(): Promise<Kind[]> {
    return this.#collections.kinds();
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
    return listKind(this.#collections, kind, options);
  }

  /** Stores a draft from {@link draftOfEmpty} as a new resource. */
  #create(draft: Draft, owner: string, knownMissing = false): Resource {
    const md = draft.metadata;
    checkCreatedNamespace(md);
    const collection = this.#collections.of(md);
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
    this.#watches.publish(collection, 'created', stored);
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
    const collection = this.#collections.find(current.metadata) as Collection;
    const { id } = stored.metadata;
    this.#writes++;
    collection.items.set(id, stored);
    collection.index.update(id, current, stored);
    this.#watches.publish(collection, 'updated', stored, current);
  }

  #destroy(pointer: Pointer, options: OwnerOptions = {}): void {
    const collection = this.#collections.find(pointer);
    const current = collection?.items.get(pointer.id);
    if (!collection || !current) throw new NotFoundError(toPointer(pointer));
    checkDestroy(current, options);
    this.#writes++;
    collection.items.delete(pointer.id);
    collection.index.update(pointer.id, current, undefined);
    collection.order.removed(pointer.id);
    this.#watches.publish(collection, 'destroyed', current);
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
    return this.#collections.find(pointer)?.items.get(pointer.id);
  }

  async watchKind(kind: Kind, delivery: Delivery, options: WatchKindOptions = {}): Promise<void> {
    this.#watches.watchKind(kind, delivery, options);
  }
}
