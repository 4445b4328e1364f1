/**
 * A queue controller's notes of its own `addFinalizer` writes on primary inputs (with
 * `skipOwnFinalizerRequeue`), by queue key, each kept from the write until its event: so the
 * event that only echoes the write can be told apart and left unqueued.
 */

import type { ResourceEvent } from '../state/state.js';
import { isOwnFinalizerEcho, type OwnFinalizerWrite } from './finalizer-only-change.js';

/**
 * The notes, by queue key. A note lives from the write until its event, so there is nearly always
 * at most one: it is kept in a slot of its own, and only others in the map, which a set and a
 * delete per item would otherwise churn (rehashing every few items).
 */
export class OwnFinalizerWrites {
  readonly #others = new Map<string, OwnFinalizerWrite>();
  #slotKey: string | undefined;
  #slotWrite: OwnFinalizerWrite | undefined;

  /** No note is kept: no event needs checking. */
  get isEmpty(): boolean {
    return this.#slotKey === undefined && this.#others.size === 0;
  }

  /**
   * Whether a primary event, queued under `key`, is the echo of this controller's own
   * `addFinalizer`, which needs no reconcile. The note is used up by an event of its version or a
   * later one; an older event (delivered late) leaves it in place.
   *
   * Why skipping it loses nothing: the reconcile that added the finalizer read the input at
   * version v - 1 and went on to do all its work from it; version v is that same input plus our
   * finalizer (the same spec, labels and phase: a finalizer change touches nothing else), and
   * the controller reads nothing from its input's finalizers, so reconciling v would repeat the
   * same work and write nothing. Only the event of version v itself is skipped, and only when it
   * changes the finalizers alone: a write by anyone else between our finalizer write and the
   * next reconcile makes version v + 1, whose own event is queued as always. An event older than
   * v (delivered late) is queued as always and leaves the record in place. On a state that
   * cannot be peeked (etcd) v comes from the version of the metadata the controller passed, and
   * is never checked after the write: a wrong one matches no event, and nothing is skipped.
   * COSI reconciles twice here; the converged result is the same.
   */
  isEcho(key: string, event: ResourceEvent): boolean {
    const inSlot = key === this.#slotKey;
    const write = inSlot ? this.#slotWrite : this.#others.get(key);
    if (write === undefined || event.resource.metadata.version < write.version) return false;
    this.#forget(key, inSlot);
    return isOwnFinalizerEcho(event, write);
  }

  /** Notes a write of a primary input's finalizer under its queue key, replacing an older note. */
  note(key: string, write: OwnFinalizerWrite): void {
    if (this.#slotKey === undefined || this.#slotKey === key) {
      this.#slotKey = key;
      this.#slotWrite = write;
      // A note of this key in the map is an older one, which this one replaces.
      if (this.#others.size > 0) this.#others.delete(key);
    } else {
      this.#others.set(key, write);
    }
  }

  /** Drops the note of a key (the write missed). */
  forget(key: string): void {
    this.#forget(key, key === this.#slotKey);
  }

  #forget(key: string, inSlot: boolean): void {
    if (inSlot) {
      this.#slotKey = undefined;
      this.#slotWrite = undefined;
    } else if (this.#others.size > 0) {
      this.#others.delete(key);
    }
  }
}
