import { pointerKey, toPointer, type Pointer } from '../resource/pointer.js';
import type { Resource } from '../resource/resource.js';
import { changedFields } from './changed-fields.js';

/** A resource at one version: `type(namespace/id)@version`. */
export interface VersionRef extends Pointer {
  readonly version: number;
}

/** What a recorded write did to the state. */
export type WriteOp = 'create' | 'update' | 'teardown' | 'finalizers' | 'destroy';

/** One change a reconcile made. */
export interface RecordedWrite extends VersionRef {
  readonly op: WriteOp;
  /**
   * JSON pointers (into `{ metadata, spec }`) of what changed; a create sets every spec field.
   * Empty when the record did not see the version before it.
   */
  readonly fields: readonly string[];
  /** The resource as stored by the write (frozen, so kept without a copy); not for destroy. */
  readonly resource?: Resource;
}

/**
 * How a reconcile ended. `skip` and `requeue` are a queue controller's `SkipError` and plain
 * `RequeueError`; `error` is any failure, `terminal` when not retried, `gaveUp` when it was the
 * last attempt of a convergence run.
 */
export type ReconcileOutcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'skip' }
  | {
      readonly kind: 'requeue';
      readonly after: number;
      /** `after` is the item's backoff (`{ requeue: true }`), not an interval asked for. */
      readonly rateLimited?: true;
    }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly terminal?: boolean;
      readonly gaveUp?: boolean;
      /** A fault of the code (a `TypeError`, a call of `process.exit`...): see `isCodeFault`. */
      readonly fault?: true;
    }
  | { readonly kind: 'stopped' };

/**
 * What a recorded step was: a whole-world controller's pass (`run`), a queue controller's
 * `reconcile` of one item, a `map` of a changed secondary input to items by its `mapInput`, or
 * the `route` of an input event by its `mapEvent` (a builder's predicates and handlers).
 */
export type ReconcileJob = 'run' | 'reconcile' | 'map' | 'route';

/** One recorded reconcile (or mapping), in the order they started. */
export interface RecordedReconcile {
  /** 1, 2, ... over the whole record, never reused. */
  readonly seq: number;
  readonly controller: string;
  readonly job: ReconcileJob;
  /** The queue item reconciled, or the changed input mapped; none for a whole-world pass. */
  readonly item?: Pointer;
  /** Clock time at the start and at the end (virtual on a simulated clock). */
  readonly startedAt: number;
  endedAt: number;
  /**
   * Logical times: one tick per start and per end of any reconcile, in the order they happened.
   * Deterministic, as the run is: what `--trace --stable` lays slices out by.
   */
  readonly startTick: number;
  endTick: number;
  /** With the `wallNow` option: wall-clock times of the start and the end. */
  readonly wallStart?: number;
  wallEnd?: number;
  /** The changes that woke it (empty: a start, a restart, a retry or a requeue). */
  readonly triggers: readonly VersionRef[];
  /** What it read, in order, each resource once at the version it saw. */
  readonly reads: readonly VersionRef[];
  readonly writes: readonly RecordedWrite[];
  /** For a mapping: the items it queued (empty: it mapped the change to nothing). */
  mapped?: readonly Pointer[];
  /** The controller's queue length when it started (queue controllers). */
  readonly queueDepth?: number;
  /** Absent while running. */
  outcome?: ReconcileOutcome;
}

/**
 * What the runtime tells a recorder, only when one is installed (so a run without one pays a
 * single check per call site). Sequence numbers identify the open reconciles.
 */
export interface RunRecorder {
  /** A reconcile starts; returns its sequence number. */
  start(
    controller: string,
    job: ReconcileJob,
    item: Pointer | undefined,
    triggers: readonly Resource[],
    queueDepth?: number,
  ): number;
  /** It read these resources. */
  read(seq: number, resources: readonly Resource[]): void;
  /** It changed the state: `resource` is what was stored (absent for destroy and teardown). */
  wrote(seq: number, op: WriteOp, pointer: Pointer, version: number, resource?: Resource): void;
  /** A mapping queued these items. */
  mapped(seq: number, items: readonly Pointer[]): void;
  end(seq: number, outcome: ReconcileOutcome): void;
}

/** How much a {@link RunRecord} keeps. */
export interface RunRecordOptions {
  /** Reconciles kept; older ones are dropped and the record says it is truncated. */
  readonly maxReconciles?: number;
  /** The clock the times are read from. */
  readonly now?: () => number;
  /** A wall clock (`performance.now`), for a trace of what the run cost; none by default. */
  readonly wallNow?: () => number;
}

/** The default cap on recorded reconciles. */
export const DEFAULT_MAX_RECONCILES = 50_000;

/** How many manifest updates of one resource the record keeps: the newest. */
const MANIFEST_UPDATES_KEPT = 16;

/**
 * The record of a run: per reconcile, who ran, why, what it read and wrote, and how it ended.
 * Bounded: past `maxReconciles` the oldest are dropped and {@link RunRecord.truncated} is set, so
 * a run that never settles cannot exhaust memory.
 *
 * Recording stays off the hot path: a read or a trigger keeps a reference to the (frozen)
 * resource, a write one small object; versions, de-duplication, changed fields and the index of
 * writers are derived when someone asks, after the run.
 *
 * @example
 * const record = new RunRecord({ now: () => clock.now() });
 * const runtime = createRuntime(state, { clock, recorder: record });
 * await runtime.converge();
 * record.writeOf({ namespace: 'default', type: 'Strs.example.org', id: '1', version: 1 });
 */
export class RunRecord implements RunRecorder {
  readonly maxReconciles: number;
  readonly #now: () => number;
  readonly #wallNow: (() => number) | undefined;
  #tick = 0;
  readonly #reconciles = new Map<number, ReconcileEntry>();
  /** `key@version` -> the write of that version and its reconcile; rebuilt when stale. */
  #writers: Map<string, { reconcile: ReconcileEntry; write: WriteEntry }> | undefined;
  /** Pointer key -> every write of that resource, oldest first; rebuilt with `#writers`. */
  #writesByPointer: Map<string, { reconcile: ReconcileEntry; write: WriteEntry }[]> | undefined;
  /** `key@version` -> a resource some reconcile read or was triggered by; rebuilt when stale. */
  #observed: Map<string, Resource> | undefined;
  #seq = 0;
  #dropped = 0;
  /**
   * Pointer key -> the versions the manifests' applier wrote over a resource that was there (a
   * watch round's edit), oldest first, the newest {@link MANIFEST_UPDATES_KEPT} of each.
   */
  readonly #manifestUpdates = new Map<string, { version: number; at: number }[]>();
  readonly #resourceAtFn = (pointer: Pointer, version: number): Resource | undefined =>
    this.#resourceAt(pointer, version);

  constructor(options: RunRecordOptions = {}) {
    this.maxReconciles = options.maxReconciles ?? DEFAULT_MAX_RECONCILES;
    this.#now = options.now ?? (() => 0);
    this.#wallNow = options.wallNow;
  }

  /** Whether older reconciles were dropped to stay within the cap. */
  get truncated(): boolean {
    return this.#dropped > 0;
  }

  /** How many reconciles were dropped. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The kept reconciles, oldest first. */
  reconciles(): RecordedReconcile[] {
    return [...this.#reconciles.values()];
  }

  reconcile(seq: number): RecordedReconcile | undefined {
    return this.#reconciles.get(seq);
  }

  /** The reconcile that wrote `ref` (at its version), when it is in the record. */
  writeOf(ref: VersionRef): { reconcile: RecordedReconcile; write: RecordedWrite } | undefined {
    return this.#index().get(versionKey(ref));
  }

  /** Every recorded write of one resource, oldest first, with the reconcile that made it. */
  writesTo(pointer: Pointer): { reconcile: RecordedReconcile; write: RecordedWrite }[] {
    this.#index();
    return [...(this.#writesByPointer?.get(pointerKey(pointer)) ?? [])];
  }

  /**
   * Notes that the manifests were applied over `pointer` again, making `version` (an edit of its
   * file). A first apply's creation is not noted: a resource from a manifest is its version 1.
   */
  manifestUpdated(pointer: Pointer, version: number): void {
    const key = pointerKey(pointer);
    let updates = this.#manifestUpdates.get(key);
    if (updates === undefined) this.#manifestUpdates.set(key, (updates = []));
    updates.push({ version, at: this.#now() });
    if (updates.length > MANIFEST_UPDATES_KEPT) updates.shift();
  }

  /** The versions the manifests wrote over `pointer` after its first apply, oldest first. */
  manifestUpdatesTo(
    pointer: Pointer,
  ): readonly { readonly version: number; readonly at: number }[] {
    return this.#manifestUpdates.get(pointerKey(pointer)) ?? [];
  }

  start(
    controller: string,
    job: ReconcileJob,
    item: Pointer | undefined,
    triggers: readonly Resource[],
    queueDepth?: number,
  ): number {
    const seq = ++this.#seq;
    const wall = this.#wallNow?.();
    this.#reconciles.set(
      seq,
      new ReconcileEntry(
        seq,
        controller,
        job,
        item,
        this.#now(),
        ++this.#tick,
        wall,
        triggers,
        queueDepth,
      ),
    );
    if (triggers.length > 0) this.#observed = undefined;
    if (this.#reconciles.size > this.maxReconciles) this.#dropOldest();
    return seq;
  }

  read(seq: number, resources: readonly Resource[]): void {
    const reconcile = this.#reconciles.get(seq);
    if (!reconcile) return;
    if (resources.length === 1) reconcile.readResources.push(resources[0] as Resource);
    else reconcile.readLists.push(resources);
    this.#observed = undefined;
  }

  wrote(seq: number, op: WriteOp, pointer: Pointer, version: number, resource?: Resource): void {
    const reconcile = this.#reconciles.get(seq);
    if (!reconcile) return;
    reconcile.writes.push(new WriteEntry(pointer, version, op, resource, this.#resourceAtFn));
    this.#writers = undefined;
  }

  mapped(seq: number, items: readonly Pointer[]): void {
    const reconcile = this.#reconciles.get(seq);
    if (reconcile) reconcile.mapped = items.map(toPointer);
  }

  end(seq: number, outcome: ReconcileOutcome): void {
    const reconcile = this.#reconciles.get(seq);
    if (!reconcile || reconcile.outcome) return;
    reconcile.outcome = outcome;
    reconcile.endedAt = this.#now();
    reconcile.endTick = ++this.#tick;
    if (this.#wallNow) reconcile.wallEnd = this.#wallNow();
  }

  #index(): Map<string, { reconcile: ReconcileEntry; write: WriteEntry }> {
    if (this.#writers) return this.#writers;
    const index = new Map<string, { reconcile: ReconcileEntry; write: WriteEntry }>();
    const byPointer = new Map<string, { reconcile: ReconcileEntry; write: WriteEntry }[]>();
    for (const reconcile of this.#reconciles.values()) {
      for (const write of reconcile.writes) {
        const entry = { reconcile, write };
        // A destroy makes no version another reconcile can read.
        if (write.op !== 'destroy') index.set(versionKey(write), entry);
        const key = pointerKey(write);
        const writes = byPointer.get(key);
        if (writes) writes.push(entry);
        else byPointer.set(key, [entry]);
      }
    }
    this.#writers = index;
    this.#writesByPointer = byPointer;
    return index;
  }

  /** The resource at one version, if the record holds it (written, read or a trigger). */
  #resourceAt(pointer: Pointer, version: number): Resource | undefined {
    const written = this.#index().get(versionKey({ ...pointerOf(pointer), version }))?.write;
    if (written?.resource) return written.resource;
    return this.#observedIndex().get(versionKey({ ...pointerOf(pointer), version }));
  }

  /** Every resource version a kept reconcile read or was triggered by, the first seen kept. */
  #observedIndex(): Map<string, Resource> {
    if (this.#observed) return this.#observed;
    const index = new Map<string, Resource>();
    const note = (r: Resource): void => {
      const key = versionKey({ ...pointerOf(r.metadata), version: r.metadata.version });
      if (!index.has(key)) index.set(key, r);
    };
    for (const reconcile of this.#reconciles.values()) {
      for (const r of reconcile.allReadResources()) note(r);
      for (const r of reconcile.triggerResources) note(r);
    }
    this.#observed = index;
    return index;
  }

  /** Drops the oldest tenth at once, so the cost per reconcile stays constant. */
  #dropOldest(): void {
    const drop = Math.max(1, Math.floor(this.maxReconciles / 10));
    let n = 0;
    for (const seq of this.#reconciles.keys()) {
      if (n++ >= drop) break;
      this.#reconciles.delete(seq);
      this.#dropped++;
    }
    this.#writers = undefined;
    this.#observed = undefined;
  }
}

/** One reconcile as recorded: raw references on the hot path, views derived on demand. */
class ReconcileEntry implements RecordedReconcile {
  endedAt: number;
  endTick: number;
  wallEnd?: number;
  mapped?: readonly Pointer[];
  outcome?: ReconcileOutcome;
  readonly item?: Pointer;
  readonly wallStart?: number;
  readonly queueDepth?: number;
  readonly writes: WriteEntry[] = [];
  /** Single reads (`get`) and whole lists, as the facade handed them over. */
  readonly readResources: Resource[] = [];
  readonly readLists: (readonly Resource[])[] = [];
  #reads: VersionRef[] | undefined;
  #readCount = -1;
  #triggers: VersionRef[] | undefined;

  constructor(
    readonly seq: number,
    readonly controller: string,
    readonly job: ReconcileJob,
    item: Pointer | undefined,
    readonly startedAt: number,
    readonly startTick: number,
    wallStart: number | undefined,
    readonly triggerResources: readonly Resource[],
    queueDepth: number | undefined,
  ) {
    this.endedAt = startedAt;
    this.endTick = startTick;
    if (item !== undefined) this.item = toPointer(item);
    if (wallStart !== undefined) {
      this.wallStart = wallStart;
      this.wallEnd = wallStart;
    }
    if (queueDepth !== undefined) this.queueDepth = queueDepth;
  }

  *allReadResources(): Iterable<Resource> {
    yield* this.readResources;
    for (const list of this.readLists) yield* list;
  }

  /** What it read, each resource at each version once, in order. */
  get reads(): VersionRef[] {
    const count = this.readResources.length + this.readLists.length;
    if (this.#reads && this.#readCount === count) return this.#reads;
    this.#reads = uniqueRefs(this.allReadResources());
    this.#readCount = count;
    return this.#reads;
  }

  get triggers(): readonly VersionRef[] {
    this.#triggers ??= uniqueRefs(this.triggerResources);
    return this.#triggers;
  }
}

/** One write as recorded; its changed fields are worked out when asked for. */
class WriteEntry implements RecordedWrite {
  readonly namespace: string;
  readonly type: string;
  readonly id: string;
  #fields: readonly string[] | undefined;

  constructor(
    pointer: Pointer,
    readonly version: number,
    readonly op: WriteOp,
    readonly resource: Resource | undefined,
    private readonly resourceAt: (pointer: Pointer, version: number) => Resource | undefined,
  ) {
    this.namespace = pointer.namespace;
    this.type = pointer.type;
    this.id = pointer.id;
  }

  get fields(): readonly string[] {
    this.#fields ??= this.#changed();
    return this.#fields;
  }

  #changed(): string[] {
    switch (this.op) {
      case 'create':
        return changedFields(undefined, this.resource);
      case 'teardown':
        return ['/metadata/phase'];
      case 'finalizers':
        return ['/metadata/finalizers'];
      case 'destroy':
        return [];
      case 'update': {
        const before = this.resourceAt(this, this.version - 1);
        return before ? changedFields(before, this.resource) : [];
      }
    }
  }

  toJSON(): unknown {
    const { namespace, type, id, version, op, fields } = this;
    return { namespace, type, id, version, op, fields };
  }
}

function uniqueRefs(resources: Iterable<Resource>): VersionRef[] {
  const seen = new Set<string>();
  const out: VersionRef[] = [];
  for (const resource of resources) {
    const ref = toVersionRef(resource);
    const key = versionKey(ref);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ref);
  }
  return out;
}

function pointerOf(p: Pointer): Pointer {
  return { namespace: p.namespace, type: p.type, id: p.id };
}

/** `key@version`. */
export function versionKey(ref: VersionRef): string {
  return `${pointerKey(ref)}@${ref.version}`;
}

/** `type(namespace/id)@version`, as the explain output names a resource at a version. */
export function formatVersionRef(ref: VersionRef): string {
  return `${ref.type}(${ref.namespace}/${ref.id})@${ref.version}`;
}

export function toVersionRef(resource: Resource): VersionRef {
  const { namespace, type, id, version } = resource.metadata;
  return { namespace, type, id, version };
}
