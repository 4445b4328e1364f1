import { ALL_NAMESPACES, type Kind, type Pointer } from '../resource/pointer.js';

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
  /**
   * The ids of the changed resources of one kind (namespace and type), each once. Of a kind in
   * {@link ALL_NAMESPACES} (an input of every namespace), the ids of the type's changes in every
   * namespace, each once however many namespaces have it: {@link pointers} tells them apart.
   */
  ids(kind: Kind): readonly string[];
  /**
   * The changed resources of one kind, as pointers: of a kind in {@link ALL_NAMESPACES}, those of
   * every namespace, by namespace, then in the order they changed.
   */
  pointers(kind: Kind): readonly Pointer[];
}

/**
 * Past this many distinct changes a pass is told nothing (a full pass): visiting that many costs
 * about what looking at everything does, and the collector's memory stays bounded.
 */
export const MAX_COLLECTED_CHANGES = 65_536;

/**
 * Collects the pointers of delivered events until a pass takes them. Off until {@link start}:
 * the events before the first pass of a run (all of a large initial load, say) are not kept, as
 * that pass looks at everything anyway.
 */
export class InputChangeCollector {
  /** By type, then namespace: no key string built per event. */
  #byKind = new Map<string, Map<string, Set<string>>>();
  #size = 0;
  #collecting = false;
  #overflowed = false;

  add(pointer: Pointer): void {
    if (!this.#collecting) return;
    let byNamespace = this.#byKind.get(pointer.type);
    if (!byNamespace)
      this.#byKind.set(pointer.type, (byNamespace = new Map<string, Set<string>>()));
    let ids = byNamespace.get(pointer.namespace);
    if (!ids) byNamespace.set(pointer.namespace, (ids = new Set()));
    if (ids.has(pointer.id)) return;
    if (this.#size >= MAX_COLLECTED_CHANGES) {
      this.#overflowed = true;
      this.#collecting = false;
      this.#byKind = new Map();
      return;
    }
    ids.add(pointer.id);
    this.#size++;
  }

  /** Starts collecting afresh: at the first pass of a run. */
  start(): void {
    this.#byKind = new Map();
    this.#size = 0;
    this.#collecting = true;
    this.#overflowed = false;
  }

  /**
   * What was collected, frozen, and the collector starts empty again; `undefined` when more
   * changed than it keeps ({@link MAX_COLLECTED_CHANGES}): that pass should look at everything.
   */
  take(): InputChanges | undefined {
    const byKind = this.#byKind;
    const size = this.#size;
    const overflowed = this.#overflowed;
    this.start();
    if (overflowed) return undefined;
    const pointers = (kind: Kind): Pointer[] => {
      const byNamespace = byKind.get(kind.type);
      if (!byNamespace) return [];
      const namespaces =
        kind.namespace === ALL_NAMESPACES
          ? [...byNamespace.keys()].sort()
          : byNamespace.has(kind.namespace)
            ? [kind.namespace]
            : [];
      return namespaces.flatMap((namespace) =>
        [...(byNamespace.get(namespace) ?? [])].map((id) => ({ namespace, type: kind.type, id })),
      );
    };
    return {
      size,
      ids: (kind) =>
        kind.namespace === ALL_NAMESPACES
          ? [...new Set(pointers(kind).map((p) => p.id))]
          : [...(byKind.get(kind.type)?.get(kind.namespace) ?? [])],
      pointers,
    };
  }
}
