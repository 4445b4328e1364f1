/**
 * Where the in-memory state keeps its resources: one collection per kind (namespace and type),
 * each with its items, indexes, history and watchers, found by type then namespace, and the one
 * found last remembered.
 */
import type { Kind } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import type { ListOptions } from './state.js';
import { CollectionIndex } from './collection-index.js';
import { EventHistory } from './event-history.js';
import { IdOrder } from './id-order.js';
import type { WatchSubscription } from './watch-subscription.js';

/** Who a change is handed out to: a collection's watchers, or those of a type in every namespace. */
export interface Watchers {
  /** With the filters of each watch. */
  readonly kindWatchers: Map<WatchSubscription, ListOptions>;
  /** By id. */
  readonly pointerWatchers: Map<string, Set<WatchSubscription>>;
}

/** The resources of one kind, and who watches them. */
export interface Collection extends Watchers {
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
  /** How many of the kind watchers read bookmarks (all but those with `skipBookmarks`). */
  bookmarkReaders: number;
}

/** Tells the bookmarks of different states apart (and of the same state across restarts). */
let stateSerial = 0;

/** The collections of one in-memory state, by type, then namespace. */
export class Collections {
  /** By type, then namespace: no key strings to build on the hot path. */
  readonly #byType = new Map<string, Map<string, Collection>>();
  /**
   * The collection found last, and its kind. Writes and reads come in runs on one kind (a
   * controller writing its outputs one after the other), and each would otherwise cost two map
   * lookups, several times per write. Collections are never removed, so it never goes stale.
   */
  #lastType = '';
  #lastNamespace = '';
  #lastCollection: Collection | undefined = undefined;
  readonly #historyCapacity: number;
  readonly #historyGap: number;
  readonly #bookmarkPrefix: string;
  #historySerial = 0;

  constructor(historyCapacity: number, historyGap: number) {
    this.#historyCapacity = historyCapacity;
    this.#historyGap = historyGap;
    // A random part too: a bookmark kept across a restart of the process must not resume.
    this.#bookmarkPrefix = `${Math.random().toString(36).slice(2, 10)}${(stateSerial++).toString(36)}.`;
  }

  /** The collection of a kind, if it was ever used. */
  find(kind: Kind): Collection | undefined {
    if (kind.type === this.#lastType && kind.namespace === this.#lastNamespace) {
      return this.#lastCollection;
    }
    const collection = this.#byType.get(kind.type)?.get(kind.namespace);
    // Only a collection that exists is remembered: a miss must not shadow a later create.
    if (collection) this.#remember(collection);
    return collection;
  }

  /** The collection of a kind, made empty on first use (a watch may come before any write). */
  of(kind: Kind): Collection {
    const known = this.find(kind);
    if (known) return known;
    let byNamespace = this.#byType.get(kind.type);
    if (!byNamespace) this.#byType.set(kind.type, (byNamespace = new Map<string, Collection>()));
    let collection = byNamespace.get(kind.namespace);
    if (!collection) {
      collection = {
        kind: { namespace: kind.namespace, type: kind.type },
        items: new Map(),
        index: new CollectionIndex(),
        order: new IdOrder(),
        history: this.newHistory(),
        kindWatchers: new Map(),
        bookmarkReaders: 0,
        pointerWatchers: new Map(),
      };
      byNamespace.set(kind.namespace, collection);
    }
    this.#remember(collection);
    return collection;
  }

  /** The collections of a type, by namespace. */
  ofType(type: string): ReadonlyMap<string, Collection> | undefined {
    return this.#byType.get(type);
  }

  /** Every namespace and type that holds at least one resource. */
  kinds(): Kind[] {
    const out: Kind[] = [];
    for (const [type, byNamespace] of this.#byType) {
      for (const [namespace, collection] of byNamespace) {
        if (collection.items.size > 0) out.push({ namespace, type });
      }
    }
    return out;
  }

  /** An empty history, whose bookmarks are of no other history's. */
  newHistory(): EventHistory {
    const prefix = `${this.#bookmarkPrefix}${(this.#historySerial++).toString(36)}.`;
    return new EventHistory(prefix, this.#historyCapacity, this.#historyGap);
  }

  #remember(collection: Collection): void {
    this.#lastType = collection.kind.type;
    this.#lastNamespace = collection.kind.namespace;
    this.#lastCollection = collection;
  }
}
