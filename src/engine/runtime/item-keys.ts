import { toPointer, type Pointer } from '../resource/pointer.js';

/** The one key object of a resource, for as long as its table holds it. */
export interface ItemKey {
  readonly pointer: Pointer;
}

/**
 * Interns a key object per resource, found by its type, namespace and id without building a key
 * string: a queue controller keys its work queue and its per-item records by these objects, so
 * an event costs a few lookups of strings the resource already holds (their hashes are cached)
 * instead of a new string to build and hash per queue operation.
 *
 * A key stays until {@link release}d: the caller releases it once nothing refers to it any more
 * (not queued, not in flight, no failure or backoff kept for it), so the table holds only the
 * items in the works, not every resource ever seen.
 */
export class ItemKeys {
  /** By type, then namespace, then id. */
  readonly #byType = new Map<string, Map<string, Map<string, ItemKey>>>();
  #size = 0;

  /** Keys held. */
  get size(): number {
    return this.#size;
  }

  /** The key of the resource, made on first use. */
  intern(pointer: Pointer): ItemKey {
    const ids = this.#ids(pointer, true) as Map<string, ItemKey>;
    let key = ids.get(pointer.id);
    if (key === undefined) {
      key = { pointer: toPointer(pointer) };
      ids.set(pointer.id, key);
      this.#size++;
    }
    return key;
  }

  /** The key of the resource if it is held; never makes one. */
  find(pointer: Pointer): ItemKey | undefined {
    return this.#ids(pointer, false)?.get(pointer.id);
  }

  /** Forgets the key: the next {@link intern} of its resource makes a new one. */
  release(key: ItemKey): void {
    const { pointer } = key;
    const ids = this.#ids(pointer, false);
    if (ids?.get(pointer.id) !== key) return;
    ids.delete(pointer.id);
    this.#size--;
  }

  #ids(pointer: Pointer, make: boolean): Map<string, ItemKey> | undefined {
    let namespaces = this.#byType.get(pointer.type);
    if (namespaces === undefined) {
      if (!make) return undefined;
      this.#byType.set(pointer.type, (namespaces = new Map<string, Map<string, ItemKey>>()));
    }
    let ids = namespaces.get(pointer.namespace);
    if (ids === undefined && make)
      namespaces.set(pointer.namespace, (ids = new Map<string, ItemKey>()));
    return ids;
  }
}
