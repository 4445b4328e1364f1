import { compareStrings } from '../compare-strings.js';
import { RESOURCE_DEFINITION_TYPE } from '../resource/definition.js';
import { kindKey, pointerKey, type Kind } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import { isResourceEvent, type State, type StateEvent } from './state.js';
import type { StateSnapshot } from './state-snapshot.js';

/** A resource that differs between two snapshots: created, updated or destroyed. */
export interface SnapshotChange {
  /** As the earlier snapshot held it; absent when created since. */
  readonly before?: Resource;
  /** As the later snapshot holds it; absent when destroyed since. */
  readonly after?: Resource;
}

/** What a {@link SnapshotTracker} takes: a snapshot, and how it differs from the one before. */
export interface TrackedSnapshot extends StateSnapshot {
  /**
   * The resources (definitions included) that differ from the previous snapshot, `since` (its
   * `resources`), sorted by type, namespace and id; absent on the first snapshot or when the
   * tracker lost track (it took everything again).
   */
  readonly changes?: {
    readonly since: readonly Resource[];
    readonly list: readonly SnapshotChange[];
  };
}

/**
 * Takes snapshots of a state again and again at the cost of what changed in between (a watch
 * round's): it watches every kind it has seen and keeps the changes its watches deliver, so a
 * snapshot patches the previous one instead of listing everything, and says what differs. The
 * first snapshot lists every kind; a new kind is listed once, when it first shows up in
 * `kinds()`. A watch that overruns (`errored`) makes the next snapshot list everything again.
 *
 * @example
 * const tracker = new SnapshotTracker(state);
 * const first = await tracker.take(); // lists everything
 * // ... writes ...
 * const next = await tracker.take(); // next.changes.list: what the writes changed
 * tracker.stop();
 */
export class SnapshotTracker {
  readonly #state: State;
  readonly #abort = new AbortController();
  /** Ends the current watches (not the tracker): when they lost events. */
  #watchSignal = new AbortController();
  readonly #watched = new Set<string>();
  /** Changes delivered since the last snapshot: the latest resource by key (null: destroyed). */
  #pending = new Map<string, Resource | null>();
  #lost = false;
  #last: TrackedSnapshot | undefined;
  /** The last snapshot's resources and definitions, by key. */
  #byKey = new Map<string, Resource>();
  #listed = 0;

  constructor(state: State) {
    this.#state = state;
  }

  /** How many resources the last {@link take} listed from the state (all, or the new kinds'). */
  get listed(): number {
    return this.#listed;
  }

  /** The state now, and how it differs from the previous snapshot. */
  async take(): Promise<TrackedSnapshot> {
    // Watch deliveries run in microtasks: let those of the last writes arrive first.
    await new Promise((resolve) => setImmediate(resolve));
    this.#listed = 0;
    if (this.#lost || this.#last === undefined) return this.#takeAll();
    const latest = this.#pending;
    this.#pending = new Map();
    for (const kind of await this.#state.kinds()) {
      if (this.#watched.has(kindKey(kind))) continue;
      for (const resource of await this.#watch(kind)) {
        latest.set(pointerKey(resource.metadata), resource);
      }
    }
    const list: SnapshotChange[] = [];
    for (const [key, now] of latest) {
      const before = this.#byKey.get(key);
      const after = now ?? undefined;
      if (before === after) continue;
      if (after) this.#byKey.set(key, after);
      else this.#byKey.delete(key);
      list.push({ ...(before ? { before } : {}), ...(after ? { after } : {}) });
    }
    list.sort((a, b) => compareResources(changed(a), changed(b)));
    const last = this.#last;
    const isDefinition = (c: SnapshotChange) =>
      changed(c).metadata.type === RESOURCE_DEFINITION_TYPE;
    const snapshot: TrackedSnapshot = {
      resources: patch(
        last.resources,
        list.filter((c) => !isDefinition(c)),
      ),
      definitions: patch(last.definitions, list.filter(isDefinition)),
      changes: { since: last.resources, list },
    };
    this.#last = snapshot;
    return snapshot;
  }

  /** Stops the watches. */
  stop(): void {
    this.#abort.abort();
  }

  /** Lists every kind (watching those not watched yet), as `takeSnapshot` does. */
  async #takeAll(): Promise<TrackedSnapshot> {
    if (this.#lost) {
      // The watches lost events: start them again from now.
      this.#lost = false;
      this.#watched.clear();
      this.#abortWatches();
    }
    this.#pending = new Map();
    const resources: Resource[] = [];
    const definitions: Resource[] = [];
    for (const kind of await this.#state.kinds()) {
      const listed = await this.#watch(kind);
      const into = kind.type === RESOURCE_DEFINITION_TYPE ? definitions : resources;
      for (const resource of listed) into.push(resource);
    }
    this.#pending.clear();
    this.#byKey = new Map();
    for (const resource of [...resources, ...definitions]) {
      this.#byKey.set(pointerKey(resource.metadata), resource);
    }
    this.#last = { resources, definitions };
    return this.#last;
  }

  #abortWatches(): void {
    this.#watchSignal.abort();
    this.#watchSignal = new AbortController();
  }

  /** Starts watching a kind (from now on) and lists it. */
  async #watch(kind: Kind): Promise<Resource[]> {
    this.#watched.add(kindKey(kind));
    const signal = AbortSignal.any([this.#abort.signal, this.#watchSignal.signal]);
    await this.#state.watchKindAggregated(kind, (events) => this.#receive(events), { signal });
    const listed = await this.#state.list(kind);
    this.#listed += listed.length;
    return listed;
  }

  #receive(events: readonly StateEvent[]): void {
    for (const event of events) {
      if (event.type === 'errored') this.#lost = true;
      else if (isResourceEvent(event)) {
        this.#pending.set(
          pointerKey(event.resource.metadata),
          event.type === 'destroyed' ? null : event.resource,
        );
      }
    }
  }
}

function changed(change: SnapshotChange): Resource {
  return (change.after ?? change.before) as Resource;
}

/** By type, then namespace, then id: the order of a snapshot. */
export function compareResources(a: Resource, b: Resource): number {
  return (
    compareStrings(a.metadata.type, b.metadata.type) ||
    compareStrings(a.metadata.namespace, b.metadata.namespace) ||
    compareStrings(a.metadata.id, b.metadata.id)
  );
}

/** Up to this many changes, a patch splices a native copy; more, it merges. */
const FEW = 16;

/**
 * `sorted` with the (sorted) changes made: the unchanged runs between them are copied whole, so
 * the cost is a copy of the array and a binary search per change.
 */
function patch(
  sorted: readonly Resource[],
  changes: readonly SnapshotChange[],
): readonly Resource[] {
  if (changes.length === 0) return sorted;
  if (changes.length <= FEW) {
    // A native copy and a splice per change, from the end so that places do not move.
    const out = sorted.slice();
    for (let i = changes.length - 1; i >= 0; i--) {
      const change = changes[i] as SnapshotChange;
      const at = lowerBound(out, changed(change), 0);
      const remove = change.before ? 1 : 0;
      if (change.after) out.splice(at, remove, change.after);
      else out.splice(at, remove);
    }
    return out;
  }
  const out: Resource[] = [];
  let from = 0;
  for (const change of changes) {
    const at = lowerBound(sorted, changed(change), from);
    for (let i = from; i < at; i++) out.push(sorted[i] as Resource);
    from = at;
    if (change.before) from++;
    if (change.after) out.push(change.after);
  }
  for (let i = from; i < sorted.length; i++) out.push(sorted[i] as Resource);
  return out;
}

/** The first index at or after `from` whose resource does not sort before `resource`. */
function lowerBound(sorted: readonly Resource[], resource: Resource, from: number): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareResources(sorted[mid] as Resource, resource) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
