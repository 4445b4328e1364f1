import { compareStrings } from '../compare-strings.js';
import { queriesMatch, idMatches } from '../resource/label-query.js';
import { kindKey, pointerKey, toPointer, type Kind, type Pointer } from '../resource/pointer.js';
import { cloneMetadata } from '../resource/metadata.js';
import {
  freezeResource,
  resourceEqual,
  toDraft,
  type AnyResource,
  type Draft,
  type Resource,
} from '../resource/resource.js';
import {
  alreadyExists,
  isNotFound,
  isRetryableConflict,
  NotFoundError,
  ownerConflict,
  pendingFinalizers,
  phaseConflict,
  versionConflict,
} from '../errors.js';
import type {
  CreateOptions,
  ListOptions,
  OwnerOptions,
  ResourceEvent,
  State,
  StateEvent,
  UpdateOptions,
  Updater,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from './state.js';
import { createTombstone } from './tombstone.js';

export interface InMemoryStateOptions {
  /** Timestamps for `created` / `updated`, in ms since the epoch. Defaults to `Date.now`. */
  readonly now?: () => number;
  /** Told about listeners that throw; the store and the other listeners carry on regardless. */
  readonly onListenerError?: (error: unknown) => void;
}

interface Collection {
  readonly items: Map<string, Resource>;
  /** Ids in sorted order, rebuilt lazily after a create or destroy. */
  sortedIds: string[] | undefined;
}

/**
 * One watcher: events are queued and delivered in order, asynchronously, in one microtask per
 * burst. A listener that throws is reported and the watch goes on.
 */
class Subscription {
  readonly #queue: StateEvent[] = [];
  #scheduled = false;
  closed = false;

  constructor(
    readonly listener: WatchListener,
    readonly options: WatchKindOptions,
    readonly onError: (error: unknown) => void,
  ) {}

  push(event: StateEvent): void {
    if (this.closed) return;
    this.#queue.push(event);
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(this.#flush);
    }
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    // Events pushed while flushing are delivered in this same pass, in order.
    for (let i = 0; i < this.#queue.length && !this.closed; i++) {
      try {
        this.listener(this.#queue[i] as StateEvent);
      } catch (error) {
        this.onError(error);
      }
    }
    this.#queue.length = 0;
  };
}

/** The in-memory {@link State}: resources are stored frozen and returned without copying. */
export class InMemoryState implements State {
  /** By type, then namespace: no key strings to build on the hot path. */
  readonly #collections = new Map<string, Map<string, Collection>>();
  readonly #kindWatchers = new Map<string, Set<Subscription>>();
  readonly #pointerWatchers = new Map<string, Set<Subscription>>();
  readonly #now: () => number;
  readonly #onListenerError: (error: unknown) => void;

  constructor(options: InMemoryStateOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#onListenerError = options.onListenerError ?? (() => undefined);
  }

  async get<S = unknown>(pointer: Pointer): Promise<Resource<S>> {
    return this.#get(pointer) as Resource<S>;
  }

  async list<S = unknown>(kind: Kind, options: ListOptions = {}): Promise<Resource<S>[]> {
    return this.#list(kind, options) as Resource<S>[];
  }

  async create<S>(
    resource: Draft<S> | Resource<S>,
    options: CreateOptions = {},
  ): Promise<Resource<S>> {
    if (this.#find(resource.metadata)) throw alreadyExists(toPointer(resource.metadata));
    return this.#create(toDraft(resource), options.owner ?? '') as Resource<S>;
  }

  async update<S>(
    resource: Draft<S> | Resource<S>,
    options: UpdateOptions = {},
  ): Promise<Resource<S>> {
    this.#checkUpdate(resource, options);
    return this.#update(toDraft(resource), options) as Resource<S>;
  }

  async updateWithConflicts<S = unknown>(
    pointer: Pointer,
    fn: Updater<S>,
    options: UpdateOptions = {},
  ): Promise<Resource<S>> {
    for (;;) {
      const current = this.#get(pointer) as Resource<S>;
      this.#checkPhase(current, options);
      const draft = toDraft(current);
      await fn(draft);
      if (resourceEqual(current, draft)) return current;
      try {
        return this.#update(draft, options) as Resource<S>;
      } catch (error) {
        if (isRetryableConflict(error)) continue;
        throw error;
      }
    }
  }

  async modify<S>(empty: Draft<S>, fn: Updater<S>, options: UpdateOptions = {}): Promise<void> {
    await this.modifyWithResult(empty, fn, options);
  }

  async modifyWithResult<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options: UpdateOptions = {},
  ): Promise<Resource<S>> {
    for (;;) {
      if (this.#find(empty.metadata)) return this.updateWithConflicts(empty.metadata, fn, options);
      const draft = toDraft(empty);
      await fn(draft);
      try {
        return this.#create(draft, options.owner ?? '') as Resource<S>;
      } catch (error) {
        // Someone created it while `fn` ran: update it instead.
        if (isRetryableConflict(error)) continue;
        throw error;
      }
    }
  }

  async teardown(pointer: Pointer, options: OwnerOptions = {}): Promise<boolean> {
    let current = this.#get(pointer);
    if (current.metadata.phase !== 'tearingDown') {
      current = await this.updateWithConflicts(
        pointer,
        (draft) => {
          draft.metadata.phase = 'tearingDown';
        },
        { owner: options.owner ?? '', expectedPhase: 'any' },
      );
    }
    return current.metadata.finalizers.length === 0;
  }

  async destroy(pointer: Pointer, options: OwnerOptions = {}): Promise<void> {
    this.#destroy(pointer, options);
  }

  async addFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void> {
    await this.#changeFinalizers(pointer, (set) => {
      for (const f of finalizers) set.add(f);
    });
  }

  async removeFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void> {
    await this.#changeFinalizers(pointer, (set) => {
      for (const f of finalizers) set.delete(f);
    });
  }

  async teardownAndDestroy(pointer: Pointer, options: OwnerOptions = {}): Promise<void> {
    const ready = await this.teardown(pointer, options);
    if (!ready) {
      const destroyed = await this.#waitFinalizersEmpty(pointer);
      if (destroyed) return;
    }
    try {
      this.#destroy(pointer, options);
    } catch (error) {
      // Someone else (another teardownAndDestroy, the finalizer holder) destroyed it in between.
      if (isNotFound(error)) return;
      throw error;
    }
  }

  async watch(
    pointer: Pointer,
    listener: WatchListener,
    options: WatchOptions = {},
  ): Promise<void> {
    const sub = this.#subscribe(this.#pointerWatchers, pointerKey(pointer), listener, options);
    if (!sub) return;
    const current = this.#find(pointer);
    sub.push(
      current
        ? { type: 'created', resource: current }
        : { type: 'destroyed', resource: createTombstone(toPointer(pointer)) },
    );
  }

  async watchKind(
    kind: Kind,
    listener: WatchListener,
    options: WatchKindOptions = {},
  ): Promise<void> {
    const sub = this.#subscribe(this.#kindWatchers, kindKey(kind), listener, options);
    if (!sub || !options.bootstrap) return;
    for (const resource of this.#list(kind, options)) sub.push({ type: 'created', resource });
    sub.push({ type: 'bootstrapped', kind: { namespace: kind.namespace, type: kind.type } });
  }

  /** Every namespace and type that holds at least one resource, sorted. */
  async kinds(): Promise<Kind[]> {
    const out: Kind[] = [];
    for (const [type, byNamespace] of this.#collections) {
      for (const [namespace, collection] of byNamespace) {
        if (collection.items.size > 0) out.push({ namespace, type });
      }
    }
    return out.sort(
      (a, b) => compareStrings(a.type, b.type) || compareStrings(a.namespace, b.namespace),
    );
  }

  peekVersion(pointer: Pointer): number {
    return this.#find(pointer)?.metadata.version ?? 0;
  }

  // The synchronous core every asynchronous method goes through.

  #get(pointer: Pointer): Resource {
    const found = this.#find(pointer);
    if (!found) throw new NotFoundError(toPointer(pointer));
    return found;
  }

  #list(kind: Kind, options: ListOptions = {}): Resource[] {
    const collection = this.#collection(kind);
    if (!collection) return [];
    const ids = (collection.sortedIds ??= [...collection.items.keys()].sort(compareStrings));
    const { labelQueries, idQuery } = options;
    const filtered =
      (labelQueries !== undefined && labelQueries.length > 0) || idQuery !== undefined;
    const out: Resource[] = [];
    for (const id of ids) {
      const resource = collection.items.get(id) as Resource;
      if (
        filtered &&
        !(idMatches(id, idQuery) && queriesMatch(resource.metadata.labels, labelQueries))
      ) {
        continue;
      }
      out.push(resource);
    }
    return out;
  }

  /** Stores a draft the state owns (nobody else holds a reference to it). */
  #create(draft: Draft, owner: string): Resource {
    const md = draft.metadata;
    let collection = this.#collection(md);
    if (collection?.items.has(md.id)) throw alreadyExists(toPointer(md));
    const now = this.#now();
    md.version = 1;
    md.owner = owner;
    md.created = now;
    md.updated = now;
    if (md.finalizers.length > 1) md.finalizers = [...new Set(md.finalizers)];
    const stored = freezeResource(draft);
    if (!collection) {
      collection = { items: new Map(), sortedIds: undefined };
      let byNamespace = this.#collections.get(md.type);
      if (!byNamespace)
        this.#collections.set(md.type, (byNamespace = new Map<string, Collection>()));
      byNamespace.set(md.namespace, collection);
    }
    collection.items.set(md.id, stored);
    if (collection.sortedIds) insertSorted(collection.sortedIds, md.id);
    this.#publish({ type: 'created', resource: stored });
    return stored;
  }

  #checkUpdate(resource: AnyResource, options: UpdateOptions): Resource {
    const md = resource.metadata;
    const current = this.#find(md);
    if (!current) throw new NotFoundError(toPointer(md));
    const owner = options.owner ?? '';
    if (current.metadata.owner !== owner) {
      throw ownerConflict(toPointer(md), owner, current.metadata.owner);
    }
    if (md.version !== current.metadata.version) {
      throw versionConflict(toPointer(md), md.version, current.metadata.version);
    }
    this.#checkPhase(current, options);
    return current;
  }

  /** Writes a draft the state owns, after the owner, version and phase checks. */
  #update(draft: Draft, options: UpdateOptions): Resource {
    const current = this.#checkUpdate(draft, options);
    const md = draft.metadata;
    md.version = current.metadata.version + 1;
    md.owner = current.metadata.owner;
    md.created = current.metadata.created;
    md.updated = this.#now();
    if (md.finalizers.length > 1) md.finalizers = [...new Set(md.finalizers)];
    const stored = freezeResource(draft);
    (this.#collection(md) as Collection).items.set(md.id, stored);
    this.#publish({ type: 'updated', resource: stored, old: current });
    return stored;
  }

  #destroy(pointer: Pointer, options: OwnerOptions = {}): void {
    const collection = this.#collection(pointer);
    const current = collection?.items.get(pointer.id);
    if (!collection || !current) throw new NotFoundError(toPointer(pointer));
    const owner = options.owner ?? '';
    if (current.metadata.owner !== owner) {
      throw ownerConflict(toPointer(pointer), owner, current.metadata.owner);
    }
    if (current.metadata.finalizers.length > 0) {
      throw pendingFinalizers(toPointer(pointer), current.metadata.finalizers);
    }
    collection.items.delete(pointer.id);
    if (collection.sortedIds) removeSorted(collection.sortedIds, pointer.id);
    this.#publish({ type: 'destroyed', resource: current });
  }

  #collection(kind: Kind): Collection | undefined {
    return this.#collections.get(kind.type)?.get(kind.namespace);
  }

  #find(pointer: Pointer): Resource | undefined {
    return this.#collection(pointer)?.items.get(pointer.id);
  }

  #checkPhase(current: Resource, options: UpdateOptions): void {
    const expected = options.expectedPhase ?? 'running';
    if (expected !== 'any' && current.metadata.phase !== expected) {
      throw phaseConflict(toPointer(current.metadata), expected, current.metadata.phase);
    }
  }

  /**
   * Finalizer changes touch metadata only: the new version shares the stored (frozen) spec
   * instead of copying it, which matters when every input of a controller gets one.
   */
  async #changeFinalizers(pointer: Pointer, change: (set: Set<string>) => void): Promise<void> {
    const current = this.#get(pointer);
    const set = new Set(current.metadata.finalizers);
    change(set);
    const finalizers = [...set];
    const same =
      finalizers.length === current.metadata.finalizers.length &&
      finalizers.every((f) => current.metadata.finalizers.includes(f));
    if (same) return;
    const metadata = cloneMetadata(current.metadata);
    metadata.finalizers = finalizers;
    this.#update(
      { metadata, spec: current.spec },
      { owner: current.metadata.owner, expectedPhase: 'any' },
    );
  }

  /** Resolves true if the resource was destroyed, false once its finalizers are gone. */
  #waitFinalizersEmpty(pointer: Pointer): Promise<boolean> {
    const controller = new AbortController();
    return new Promise<boolean>((resolve) => {
      void this.watch(
        pointer,
        (event) => {
          if (event.type === 'destroyed') {
            controller.abort();
            resolve(true);
          } else if (
            (event.type === 'created' || event.type === 'updated') &&
            event.resource.metadata.finalizers.length === 0
          ) {
            controller.abort();
            resolve(false);
          }
        },
        { signal: controller.signal },
      );
    });
  }

  #subscribe(
    registry: Map<string, Set<Subscription>>,
    key: string,
    listener: WatchListener,
    options: WatchKindOptions,
  ): Subscription | undefined {
    const { signal } = options;
    if (signal?.aborted) return undefined;
    const sub = new Subscription(listener, options, this.#onListenerError);
    let set = registry.get(key);
    if (!set) registry.set(key, (set = new Set()));
    set.add(sub);
    signal?.addEventListener(
      'abort',
      () => {
        sub.closed = true;
        set.delete(sub);
        if (set.size === 0 && registry.get(key) === set) registry.delete(key);
      },
      { once: true },
    );
    return sub;
  }

  #publish(event: ResourceEvent): void {
    const kindSubs =
      this.#kindWatchers.size > 0
        ? this.#kindWatchers.get(kindKey(event.resource.metadata))
        : undefined;
    if (kindSubs) for (const sub of kindSubs) deliverFiltered(sub, event);
    if (this.#pointerWatchers.size > 0) {
      const subs = this.#pointerWatchers.get(pointerKey(event.resource.metadata));
      if (subs) for (const sub of subs) sub.push(event);
    }
  }
}

/**
 * Applies a watch's label and id filters. An update that makes a resource start matching is
 * delivered as `created`, one that makes it stop matching as `destroyed`.
 */
function deliverFiltered(sub: Subscription, event: ResourceEvent): void {
  const { labelQueries, idQuery } = sub.options;
  if ((labelQueries === undefined || labelQueries.length === 0) && idQuery === undefined) {
    sub.push(event);
    return;
  }
  const matches = (r: Resource): boolean =>
    idMatches(r.metadata.id, idQuery) && queriesMatch(r.metadata.labels, labelQueries);
  if (event.type !== 'updated') {
    if (matches(event.resource)) sub.push(event);
    return;
  }
  const was = matches(event.old);
  const is = matches(event.resource);
  if (was && is) sub.push(event);
  else if (is) sub.push({ type: 'created', resource: event.resource });
  else if (was) sub.push({ type: 'destroyed', resource: event.resource });
}

/** Keeps a sorted id list current on create: lists between writes then never sort again. */
function insertSorted(ids: string[], id: string): void {
  const at = lowerBound(ids, id);
  if (at === ids.length || ids[at] !== id) ids.splice(at, 0, id);
}

function removeSorted(ids: string[], id: string): void {
  const at = lowerBound(ids, id);
  if (ids[at] === id) ids.splice(at, 1);
}

function lowerBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as string) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A new empty in-memory state. */
export function createInMemoryState(options?: InMemoryStateOptions): InMemoryState {
  return new InMemoryState(options);
}
