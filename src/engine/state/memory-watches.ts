/**
 * The watches of the in-memory state: a watch of one resource, of a kind, or of a type in every
 * namespace, each begun from now, a tail or a bookmark, and the changes handed out to them in the
 * order they were made.
 */
import { ALL_NAMESPACES, toPointer, type Kind, type Pointer } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import type {
  ListOptions,
  ResourceEvent,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from './state.js';
import { listAllNamespaces, listKind } from './collection-list.js';
import type { EventHistory } from './event-history.js';
import type { Collection, Collections, Watchers } from './memory-collections.js';
import { createTombstone } from './tombstone.js';
import { filterEvent } from './watch-filters.js';
import type { Delivery } from './watch-delivery.js';
import { WatchSubscription } from './watch-subscription.js';

/**
 * The watches of a type in every namespace ({@link ALL_NAMESPACES}): a history of their own, of
 * the changes of the type in any namespace, kept only while one of them watches, so a type
 * nobody watches so pays nothing more per write.
 */
interface AllNamespacesWatch extends Watchers {
  readonly history: EventHistory;
}

/** A watch of every namespace is of a kind: no watcher of one resource comes through it. */
const NO_POINTER_WATCHERS: ReadonlyMap<string, Set<WatchSubscription>> = new Map();

/** The watchers of one in-memory state's collections, and what is handed out to them. */
export class MemoryWatches {
  readonly #collections: Collections;
  readonly #onListenerError: (error: unknown) => void;
  /** By type: the watches of a type in every namespace, while there are any. */
  readonly #allNamespaces = new Map<string, AllNamespacesWatch>();
  /** Set while {@link publish} hands a change out; changes written meanwhile wait in `#written`. */
  #handingOut = false;
  readonly #written: WrittenMeanwhile[] = [];

  constructor(collections: Collections, onListenerError: (error: unknown) => void) {
    this.#collections = collections;
    this.#onListenerError = onListenerError;
  }

  /** A watch of one resource (see `State.watch`). */
  watch(pointer: Pointer, listener: WatchListener, options: WatchOptions): void {
    // The options were checked by the wrapper (tail and bookmark exclude each other).
    const tail = Math.floor(options.tailEvents ?? 0);
    const { startFromBookmark } = options;
    const collection = this.#collections.of(pointer);
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
    const current = collection.items.get(id);
    sub.pushInitial(
      current
        ? { type: 'created', resource: current }
        : { type: 'destroyed', resource: createTombstone(toPointer(pointer)) },
    );
  }

  /** A watch of a kind (see `State.watchKind`). */
  watchKind(kind: Kind, delivery: Delivery, options: WatchKindOptions): void {
    // The options were checked by the wrapper (bootstrap, tail and bookmark exclude each other;
    // a watch of every namespace takes neither a tail nor a bookmark).
    if (kind.namespace === ALL_NAMESPACES) {
      this.#watchAllNamespaces(kind, delivery, options);
      return;
    }
    const tail = Math.floor(options.tailEvents ?? 0);
    const { startFromBookmark } = options;
    const collection = this.#collections.of(kind);
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
      for (const resource of listKind(this.#collections, kind, options)) {
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
      all = {
        history: this.#collections.newHistory(),
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
      for (const resource of listAllNamespaces(this.#collections, kind.type, options)) {
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

  /**
   * Records a change in the kind's history and hands it to the watchers.
   *
   * An inline watcher's listener runs inside this (see {@link WatchKindOptions.inline}), and may
   * write: that change is recorded at once, but handed out only after the one being handed out
   * has reached every watcher, so that each watcher sees the changes in the order they were made.
   */
  publish(
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
