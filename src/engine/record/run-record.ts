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
  | { readonly kind: 'requeue'; readonly after: number }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly terminal?: boolean;
      readonly gaveUp?: boolean;
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
  readonly reads: VersionRef[];
  readonly writes: RecordedWrite[];
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

/**
 * The record of a run: per reconcile, who ran, why, what it read and wrote, and how it ended.
 * Bounded: past `maxReconciles` the oldest are dropped and {@link RunRecord.truncated} is set, so
 * a run that never settles cannot exhaust memory.
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
  readonly #reconciles = new Map<number, RecordedReconcile>();
  /** `key@version` -> the reconcile that wrote that version. */
  readonly #writers = new Map<string, number>();
  /** Per pointer key, the newest version the record has seen (read, written or triggered). */
  readonly #latest = new Map<string, Resource>();
  /** Per open reconcile, the `key@version`s it read: a list of thousands is checked in O(1). */
  readonly #readKeys = new Map<number, Set<string>>();
  #seq = 0;
  #dropped = 0;

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
    const seq = this.#writers.get(versionKey(ref));
    const reconcile = seq === undefined ? undefined : this.#reconciles.get(seq);
    const key = pointerKey(ref);
    const write = reconcile?.writes.find((w) => w.version === ref.version && pointerKey(w) === key);
    return reconcile && write ? { reconcile, write } : undefined;
  }

  /** Every recorded write of one resource, oldest first, with the reconcile that made it. */
  writesTo(pointer: Pointer): { reconcile: RecordedReconcile; write: RecordedWrite }[] {
    const key = pointerKey(pointer);
    const out: { reconcile: RecordedReconcile; write: RecordedWrite }[] = [];
    for (const reconcile of this.#reconciles.values()) {
      for (const write of reconcile.writes) {
        if (pointerKey(write) === key) out.push({ reconcile, write });
      }
    }
    return out;
  }

  start(
    controller: string,
    job: ReconcileJob,
    item: Pointer | undefined,
    triggers: readonly Resource[],
    queueDepth?: number,
  ): number {
    const seq = ++this.#seq;
    const refs: VersionRef[] = [];
    const seen = new Set<string>();
    for (const resource of triggers) {
      this.#see(resource);
      const ref = toVersionRef(resource);
      const key = versionKey(ref);
      if (seen.has(key)) continue;
      seen.add(key);
      refs.push(ref);
    }
    const now = this.#now();
    const tick = ++this.#tick;
    const wall = this.#wallNow?.();
    this.#reconciles.set(seq, {
      seq,
      controller,
      job,
      ...(item === undefined ? {} : { item: toPointer(item) }),
      startedAt: now,
      endedAt: now,
      startTick: tick,
      endTick: tick,
      ...(wall === undefined ? {} : { wallStart: wall, wallEnd: wall }),
      triggers: refs,
      reads: [],
      writes: [],
      ...(queueDepth === undefined ? {} : { queueDepth }),
    });
    if (this.#reconciles.size > this.maxReconciles) this.#dropOldest();
    return seq;
  }

  read(seq: number, resources: readonly Resource[]): void {
    const reconcile = this.#reconciles.get(seq);
    if (!reconcile) return;
    let keys = this.#readKeys.get(seq);
    if (!keys) this.#readKeys.set(seq, (keys = new Set()));
    for (const resource of resources) {
      const ref = toVersionRef(resource);
      this.#see(resource);
      const key = versionKey(ref);
      if (keys.has(key)) continue;
      keys.add(key);
      reconcile.reads.push(ref);
    }
  }

  wrote(seq: number, op: WriteOp, pointer: Pointer, version: number, resource?: Resource): void {
    const reconcile = this.#reconciles.get(seq);
    if (!reconcile) return;
    const key = pointerKey(pointer);
    const before = this.#latest.get(key);
    let fields: string[];
    if (op === 'create') fields = changedFields(undefined, resource);
    else if (op === 'teardown') fields = ['/metadata/phase'];
    else if (op === 'finalizers') fields = ['/metadata/finalizers'];
    else if (op === 'destroy') fields = [];
    else fields = before?.metadata.version === version - 1 ? changedFields(before, resource) : [];
    if (resource) this.#latest.set(key, resource);
    else if (op === 'destroy') this.#latest.delete(key);
    const { namespace, type, id } = pointer;
    reconcile.writes.push({
      namespace,
      type,
      id,
      version,
      op,
      fields,
      ...(resource ? { resource } : {}),
    });
    // A destroy makes no version another reconcile can read.
    if (op !== 'destroy') this.#writers.set(`${key}@${version}`, seq);
  }

  mapped(seq: number, items: readonly Pointer[]): void {
    const reconcile = this.#reconciles.get(seq);
    if (reconcile) reconcile.mapped = items.map(toPointer);
  }

  end(seq: number, outcome: ReconcileOutcome): void {
    this.#readKeys.delete(seq);
    const reconcile = this.#reconciles.get(seq);
    if (!reconcile || reconcile.outcome) return;
    reconcile.outcome = outcome;
    reconcile.endedAt = this.#now();
    reconcile.endTick = ++this.#tick;
    if (this.#wallNow) reconcile.wallEnd = this.#wallNow();
  }

  #see(resource: Resource): void {
    const key = pointerKey(resource.metadata);
    const known = this.#latest.get(key);
    if (!known || known.metadata.version <= resource.metadata.version)
      this.#latest.set(key, resource);
  }

  /** Drops the oldest tenth at once, so the cost per reconcile stays constant. */
  #dropOldest(): void {
    const drop = Math.max(1, Math.floor(this.maxReconciles / 10));
    let n = 0;
    for (const [seq, reconcile] of this.#reconciles) {
      if (n++ >= drop) break;
      for (const write of reconcile.writes) this.#writers.delete(versionKey(write));
      this.#reconciles.delete(seq);
      this.#readKeys.delete(seq);
      this.#dropped++;
    }
  }
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
