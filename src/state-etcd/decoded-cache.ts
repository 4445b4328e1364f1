import type { Resource } from '../engine/resource/resource.js';
import { decodeResource } from './resource-codec.js';

/** Keys remembered at most; beyond it the longest-remembered go first. */
export const DECODED_CACHE_CAPACITY = 100_000;

/** A key-value pair as etcd returns it: the revision is the key's last modification. */
export interface RevisionedValue {
  readonly value: Buffer;
  readonly mod_revision: string;
}

/**
 * The resources the etcd state has decoded, one per key, with the revision of the key's last
 * modification. A key's value at a given `mod_revision` never changes, so the same frozen object is
 * handed out for as long as the key is not written again: by reads, lists and watch events alike.
 *
 * It saves decoding, and it gives the etcd state what the in-memory one has: an unchanged
 * resource is the same object from one read to the next. The runtime's cheap skips compare by
 * identity (a transform's memory of the input it last wrote from, the echo of a controller's own
 * finalizer write); with a fresh object per read none of them fired on etcd, and a controller
 * reconciled and wrote more often than in memory for the same project.
 *
 * Bounded: past {@link DECODED_CACHE_CAPACITY} keys, the key remembered longest ago is dropped
 * (and decoded again when next read).
 */
export class DecodedCache {
  readonly #entries = new Map<string, { readonly revision: string; readonly resource: Resource }>();

  constructor(readonly capacity = DECODED_CACHE_CAPACITY) {}

  /** The resource `kv` holds under `key`: the remembered one if the revision is the same. */
  decode(key: string, kv: RevisionedValue): Resource {
    const known = this.#entries.get(key);
    if (known !== undefined && known.revision === kv.mod_revision) return known.resource;
    const resource = decodeResource(key, kv.value);
    // Only a newer value replaces the remembered one: a replayed event or a read at an older
    // revision decodes its own copy.
    if (known === undefined || Number(known.revision) < Number(kv.mod_revision)) {
      this.#remember(key, kv.mod_revision, resource);
    }
    return resource;
  }

  /**
   * The newest value this state saw under `key` (by a read, a write or a watch event) and its
   * revision, without asking etcd: it may be stale, and a write based on it must compare the
   * revision (see `StateCore.lastSeen`).
   */
  latest(key: string): { readonly revision: string; readonly resource: Resource } | undefined {
    return this.#entries.get(key);
  }

  /** The key was deleted at `revision`: what was remembered of it from before goes. */
  forget(key: string, revision: number): void {
    const known = this.#entries.get(key);
    if (known !== undefined && Number(known.revision) < revision) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  #remember(key: string, revision: string, resource: Resource): void {
    // Delete first, so that the key moves to the end of the eviction order.
    this.#entries.delete(key);
    this.#entries.set(key, { revision, resource });
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}
