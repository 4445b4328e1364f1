import { kindKey, type Kind, type Pointer } from '../resource/pointer.js';

/**
 * The input resources that changed since a whole-world controller's previous pass began: every
 * resource of a declared input of which an event came, each once (also the events of a
 * destroyReady input that did not wake the controller, as an output changed by someone else). A
 * controller may visit only these instead of listing everything; it must still read their current
 * state, since a resource named here may have changed again or be gone.
 *
 * Handed out with each {@link ReconcileEvent} but the first of a run (see
 * {@link ReconcileEvent.changes}). COSI hands a controller no such set (its controllers list
 * everything on every wakeup); it is cosi's, for controllers whose pass should cost what changed.
 */
export interface InputChanges {
  /** How many distinct resources changed. */
  readonly size: number;
  /** The ids of the changed resources of one kind (namespace and type), each once. */
  ids(kind: Kind): readonly string[];
}

/** Collects the pointers of delivered events until a pass takes them. */
export class InputChangeCollector {
  #byKind = new Map<string, Set<string>>();
  #size = 0;

  add(pointer: Pointer): void {
    const key = kindKey(pointer);
    let ids = this.#byKind.get(key);
    if (!ids) this.#byKind.set(key, (ids = new Set()));
    if (ids.has(pointer.id)) return;
    ids.add(pointer.id);
    this.#size++;
  }

  clear(): void {
    this.#byKind = new Map();
    this.#size = 0;
  }

  /** What was collected, as a frozen set; the collector starts empty again. */
  take(): InputChanges {
    const byKind = this.#byKind;
    const size = this.#size;
    this.clear();
    return {
      size,
      ids: (kind) => [...(byKind.get(kindKey(kind)) ?? [])],
    };
  }
}
