import { pointerKey, toPointer, type Pointer } from '../resource/pointer.js';
import { isDestroyReady, resourceEqual, type Draft, type Resource } from '../resource/resource.js';
import { isConflict, isNotFound } from '../errors.js';
import type { State } from './state.js';
import { applyOver, applyOwnersOver, type NamedOwner } from './apply-over.js';

/** A resource to apply, with a stable key (its pointer key) to diff by. */
export interface KeyedResource {
  readonly key: string;
  readonly resource: Draft;
}

/**
 * A resource an earlier apply wrote from its manifest (a run's applied set): its pointer, and
 * the keys of the labels and annotations that manifest set, the owners its owner references
 * named and the kept spec fields (see {@link ResourceApplierOptions.keptSpecFields}) it set,
 * when recorded. An apply over it removes those the manifest no longer has, and keeps the others
 * (a controller's).
 */
export interface AppliedEntry extends Pointer {
  readonly labels?: readonly string[];
  readonly annotations?: readonly string[];
  readonly ownerReferences?: readonly NamedOwner[];
  readonly specFields?: readonly string[];
}

/** What an apply changed, by key. */
export interface ApplyResult {
  readonly created: string[];
  readonly updated: string[];
  readonly tornDown: string[];
  readonly unchanged: string[];
}

/** Options of a {@link ResourceApplier}. */
export interface ResourceApplierOptions<T extends KeyedResource> {
  /**
   * What a resource belongs to (its manifest file): the groups {@link ResourceApplier.applyGroups}
   * replaces one by one. Without it, only whole applies are possible.
   */
  readonly groupOf?: (resource: T) => string;
  /**
   * `false`: an applier for one {@link ResourceApplier.apply} only (a one-shot run, such as
   * `cosi apply`): it counts what it applied but keeps none of it, so the resources given to it
   * can be released once the state holds its copies; {@link ResourceApplier.appliedAt} then
   * answers `undefined`, and applying again throws. Default `true`.
   */
  readonly keepApplied?: boolean;
  /**
   * Writes of a whole {@link ResourceApplier.apply} kept under way at once (default 1: one after
   * the other). A state behind a network (etcd) answers many writes in flight in about the time
   * of one; the result lists keep the order of the desired resources whatever it is.
   */
  readonly concurrency?: number;
  /**
   * Told of each resource an apply changed that was there before (a file edited), as written: a
   * run's record keeps these versions beside the controllers' writes.
   */
  readonly onUpdated?: (written: Resource) => void;
  /**
   * Top-level spec fields of a type that its controllers write and a manifest does not (a
   * Kubernetes kind's `status` when it has the status subresource): an update keeps the live
   * ones the manifest lacks (see {@link applyOver}).
   */
  readonly keptSpecFields?: (type: string) => readonly string[];
}

/**
 * Keeps the user's resources (the manifests) in a state, as `kubectl apply` keeps a cluster:
 * each {@link apply} is given the whole desired set and writes only its difference from the set
 * applied before: new resources are created, changed ones updated (spec, labels, annotations;
 * the user's resources have no owner), and the ones that disappeared torn down.
 *
 * With a `groupOf`, {@link applyGroups} takes only the groups (files) that changed and compares
 * only their resources, so re-applying after a one-file edit costs that file, not the tree.
 *
 * A torn-down resource that a controller still holds with a finalizer is *released*: the applier
 * remembers it and, as its owner, destroys it once the finalizers are gone
 * ({@link destroyReleased}). So re-applying after a one-file edit costs what the edit changed.
 */
export class ResourceApplier<T extends KeyedResource = KeyedResource> {
  readonly #state: State;
  readonly #groupOf: ((resource: T) => string) | undefined;
  readonly #keepApplied: boolean;
  readonly #concurrency: number;
  readonly #onUpdated: ((written: Resource) => void) | undefined;
  readonly #keptSpecFields: ((type: string) => readonly string[]) | undefined;
  /** With `keepApplied: false`: how many the one apply applied (`undefined` before it). */
  #appliedOnce: number | undefined;
  /** What was applied, by key, in the order it was given. */
  #applied = new Map<string, T>();
  /** The applied resources of each group, when grouped. */
  #groups = new Map<string, readonly T[]>();
  /** Torn down, still held by finalizers, by key. */
  readonly #releasing = new Map<string, Pointer>();
  /**
   * Released resources that an apply gave again, by key: a resource tearing down cannot come
   * back (its controllers let go of it), so once destroyed it is created again from this.
   */
  readonly #returning = new Map<string, T>();
  /** Applied by an earlier applier (see {@link adopt}), by key: the next apply prunes them. */
  #adopted = new Map<string, AppliedEntry>();
  #compared = 0;

  constructor(state: State, options: ResourceApplierOptions<T> = {}) {
    this.#state = state;
    this.#groupOf = options.groupOf;
    this.#keepApplied = options.keepApplied ?? true;
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${concurrency}`);
    }
    this.#concurrency = concurrency;
    this.#onUpdated = options.onUpdated;
    this.#keptSpecFields = options.keptSpecFields;
  }

  /** How many resources are applied. */
  get size(): number {
    return this.#appliedOnce ?? this.#applied.size;
  }

  /**
   * How many desired resources the last apply compared with the applied ones: all of them for
   * {@link apply}, the changed groups' for {@link applyGroups}. The measure of its work.
   */
  get compared(): number {
    return this.#compared;
  }

  /** The applied resource with this key, if there is one. */
  appliedAt(key: string): T | undefined {
    return this.#applied.get(key);
  }

  /**
   * What the last apply of the resource with this key wrote from its manifest (its pointer, and
   * the labels, annotations, owner references and spec the manifest set), as applied by this
   * applier or {@link adopt}ed from an earlier one; `undefined` when neither applied it.
   */
  lastApplied(key: string): (Pointer & LastApplied) | undefined {
    const item = this.#applied.get(key);
    if (item !== undefined) {
      const { metadata } = item.resource;
      return {
        ...toPointer(metadata),
        labels: metadata.labels,
        annotations: metadata.annotations,
        ownerReferences: metadata.ownerReferences,
        spec: item.resource.spec,
      };
    }
    const entry = this.#adopted.get(key);
    if (entry === undefined) return undefined;
    return { ...toPointer(entry), ...(appliedKeys(entry) ?? { labels: {}, annotations: {} }) };
  }

  /** How many torn-down resources wait for their finalizers before {@link destroyReleased}. */
  get releasing(): number {
    return this.#releasing.size;
  }

  /**
   * Takes on what an earlier applier (another process, before) applied to the state: the next
   * {@link apply} tears down those of `applied` it is not given, as it does what it applied
   * itself. Their content is not known: those it is given are written as resources found there.
   */
  adopt(applied: readonly AppliedEntry[]): void {
    for (const entry of applied) this.#adopted.set(pointerKey(entry), entry);
  }

  /**
   * Takes on resources of the manifests that an earlier applier tore down and left to destroy
   * once their finalizers were gone (another process, stopped or killed before that): as for
   * its own, {@link destroyReleased} destroys them once nothing holds them, and creates again
   * those the manifests give.
   */
  adoptReleased(pointers: readonly Pointer[]): void {
    for (const pointer of pointers) {
      const key = pointerKey(pointer);
      this.#releasing.set(key, toPointer(pointer));
      // Given again by the manifests: created again once destroyed.
      const wanted = this.#applied.get(key);
      if (wanted !== undefined) this.#returning.set(key, wanted);
    }
  }

  /**
   * Makes the state hold `desired`, writing only what differs from the last applied set.
   *
   * @param options.retained keys of resources the manifests still give but that cannot be applied
   *   (too large for the state): what the state holds of them is left as it is, neither written
   *   nor torn down, and they stay applied as last applied (a later apply that no longer gives
   *   them tears them down), as `kubectl apply` leaves an object it failed to apply and never
   *   prunes one its manifests still have.
   */
  async apply(
    desired: readonly T[],
    options: { readonly retained?: ReadonlySet<string> } = {},
  ): Promise<ApplyResult> {
    if (this.#appliedOnce !== undefined) {
      throw new Error('this applier was made to apply once (keepApplied: false)');
    }
    const result: ApplyResult = { created: [], updated: [], tornDown: [], unchanged: [] };
    if (!this.#keepApplied) {
      // Nothing was applied before: every resource is new to it, and none is kept.
      for (const item of desired) await this.#applyOne(item, undefined, result);
      this.#compared = desired.length;
      this.#appliedOnce = desired.length;
      return result;
    }
    const retained = options.retained ?? new Set<string>();
    const applied = new Map<string, T>();
    for (const item of desired) applied.set(item.key, item);
    for (const key of retained) {
      const before = this.#applied.get(key);
      if (before !== undefined && !applied.has(key)) applied.set(key, before);
    }
    if (this.#concurrency === 1) {
      for (const item of desired) await this.#applyOne(item, this.#applied.get(item.key), result);
    } else {
      await this.#applyConcurrently(desired, result);
    }
    for (const [key, item] of this.#applied) {
      if (applied.has(key)) continue;
      if (await this.#release(key, item.resource)) result.tornDown.push(key);
    }
    const adopted = this.#adopted;
    this.#adopted = new Map();
    for (const [key, pointer] of adopted) {
      if (applied.has(key) || this.#applied.has(key)) continue;
      // Still the earlier applier's, as it left it: the next apply writes over it or prunes it.
      if (retained.has(key)) {
        this.#adopted.set(key, pointer);
        continue;
      }
      if (await this.#release(key, { metadata: toPointer(pointer) } as Draft)) {
        result.tornDown.push(key);
      }
    }
    this.#compared = desired.length;
    this.#applied = applied;
    this.#groups = new Map();
    if (this.#groupOf) {
      const groups = new Map<string, T[]>();
      for (const item of applied.values()) {
        const group = this.#groupOf(item);
        let list = groups.get(group);
        if (!list) groups.set(group, (list = []));
        list.push(item);
      }
      this.#groups = groups;
    }
    return result;
  }

  /**
   * Replaces the resources of the given groups (an empty list: a group that is gone), leaving
   * every other group as applied before: as {@link apply} of the whole set would, but comparing
   * only the given groups' resources. A resource may move between groups given together.
   *
   * @throws Error when the applier has no `groupOf`.
   */
  async applyGroups(changed: ReadonlyMap<string, readonly T[]>): Promise<ApplyResult> {
    if (!this.#groupOf) throw new Error('applyGroups needs an applier with a groupOf');
    if (!this.#keepApplied) throw new Error('applyGroups needs an applier that keepApplied');
    const result: ApplyResult = { created: [], updated: [], tornDown: [], unchanged: [] };
    const seen = new Set<string>();
    let compared = 0;
    for (const resources of changed.values()) {
      for (const item of resources) {
        seen.add(item.key);
        compared++;
        await this.#applyOne(item, this.#applied.get(item.key), result);
        this.#applied.set(item.key, item);
      }
    }
    for (const group of changed.keys()) {
      for (const item of this.#groups.get(group) ?? []) {
        if (seen.has(item.key)) continue;
        this.#applied.delete(item.key);
        if (await this.#release(item.key, item.resource)) result.tornDown.push(item.key);
      }
    }
    for (const [group, resources] of changed) {
      if (resources.length > 0) this.#groups.set(group, resources);
      else this.#groups.delete(group);
    }
    this.#compared = compared;
    return result;
  }

  /**
   * {@link apply}'s writes, {@link ResourceApplierOptions.concurrency} at once; each write's
   * outcome is noted at its index and the lists are filled in the desired order after. On a
   * failure no new write starts, and the first error is thrown once the others settled.
   */
  async #applyConcurrently(desired: readonly T[], result: ApplyResult): Promise<void> {
    const outcomes: (keyof ApplyResult | undefined)[] = new Array<undefined>(desired.length);
    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      while (!failed && next < desired.length) {
        const index = next++;
        const item = desired[index] as T;
        const one: ApplyResult = { created: [], updated: [], tornDown: [], unchanged: [] };
        try {
          await this.#applyOne(item, this.#applied.get(item.key), one);
        } catch (error) {
          failed = true;
          throw error;
        }
        outcomes[index] =
          one.created.length > 0 ? 'created' : one.updated.length > 0 ? 'updated' : 'unchanged';
      }
    };
    const workers = Array.from({ length: Math.min(this.#concurrency, desired.length) }, worker);
    const settled = await Promise.allSettled(workers);
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (rejected) throw rejected.reason;
    desired.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome !== undefined) result[outcome].push(item.key);
    });
  }

  /** Writes one desired resource unless it equals what was applied before. */
  async #applyOne(item: T, before: T | undefined, result: ApplyResult): Promise<void> {
    // Given again while tearing down: it is destroyed all the same, then created again.
    if (this.#releasing.has(item.key)) this.#returning.set(item.key, item);
    // A load reuses the resources of an unchanged document: the same object is the same content.
    if (before && (before === item || sameContent(before.resource, item.resource))) {
      result.unchanged.push(item.key);
      return;
    }
    const adopted = before === undefined ? appliedKeys(this.#adopted.get(item.key)) : undefined;
    const last = before?.resource.metadata ?? adopted;
    const lastSpec = before === undefined ? adopted?.spec : before.resource.spec;
    result[await this.#write(item.resource, last, lastSpec)].push(item.key);
  }

  /**
   * Destroys the released resources that no finalizer holds any more, and creates again those
   * an apply gave again meanwhile (as `kubectl apply` after the API server deleted them).
   * @returns whether it destroyed or created any (the controllers then have new events).
   */
  async destroyReleased(): Promise<boolean> {
    let changed = false;
    for (const [key, pointer] of this.#releasing) {
      const current = await this.#find(pointer);
      if (current !== undefined && current.metadata.phase !== 'tearingDown') {
        // Created again already (by another process applying the same manifests).
        this.#releasing.delete(key);
        this.#returning.delete(key);
        continue;
      }
      if (current !== undefined && !isDestroyReady(current)) continue;
      if (current !== undefined) {
        await this.#state.destroy(pointer);
        changed = true;
      }
      this.#releasing.delete(key);
      const returning = this.#returning.get(key);
      this.#returning.delete(key);
      if (returning === undefined) continue;
      try {
        await this.#state.create(returning.resource);
        changed = true;
      } catch (error) {
        if (!(isConflict(error) && error.reason === 'exists')) throw error;
      }
    }
    return changed;
  }

  /**
   * Creates or updates; an update that changes nothing (a no-op write) is `unchanged`. A resource
   * not `applied` before is most likely new (a first apply stores thousands of them): it is
   * created straight away, and looked up only when that finds it there, rather than looked up
   * first, which costs a not-found error per new resource.
   *
   * An update writes over the live resource as `kubectl apply` does ({@link applyOver},
   * {@link applyOwnersOver}): labels, annotations, owner references and (for some types) status
   * fields a controller added and the manifest never had are kept, so re-applying unchanged
   * manifests in a new process writes nothing. Those the `before` manifest (this applier's last
   * apply of it, or the applied set's record of an earlier run's) set and this one dropped are
   * removed.
   */
  async #write(
    resource: Draft,
    before: LastApplied | undefined,
    beforeSpec: unknown,
  ): Promise<'created' | 'updated' | 'unchanged'> {
    if (before === undefined) {
      try {
        await this.#state.create(resource);
        return 'created';
      } catch (error) {
        if (!(isConflict(error) && error.reason === 'exists')) throw error;
      }
    }
    const current = await this.#find(resource.metadata);
    if (current === undefined) {
      await this.#state.create(resource);
      return 'created';
    }
    // The version the update started from, at its last try: another writer (a controller adding a
    // finalizer) may have moved it since `current` was read, and that is not this apply's change.
    let from = current.metadata.version;
    const written = await this.#state.updateWithConflicts(
      resource.metadata,
      (draft) => {
        from = draft.metadata.version;
        const next = applyOver(
          {
            labels: draft.metadata.labels,
            annotations: draft.metadata.annotations,
            spec: draft.spec,
          },
          {
            labels: resource.metadata.labels,
            annotations: resource.metadata.annotations,
            spec: resource.spec,
          },
          {
            ...(before === undefined
              ? {}
              : {
                  lastApplied: {
                    labels: before.labels,
                    annotations: before.annotations,
                    spec: beforeSpec,
                  },
                }),
            keptSpecFields: this.#keptSpecFields?.(resource.metadata.type) ?? [],
          },
        );
        draft.spec = next.spec;
        draft.metadata.labels = { ...next.labels };
        draft.metadata.annotations = { ...next.annotations };
        // A manifest's owner references: those its last apply wrote and it dropped go.
        const owners = applyOwnersOver(
          draft.metadata.ownerReferences,
          resource.metadata.ownerReferences,
          before?.ownerReferences,
        );
        if (owners !== undefined) draft.metadata.ownerReferences = owners;
      },
      { expectedPhase: 'any' },
    );
    if (written.metadata.version === from) return 'unchanged';
    this.#onUpdated?.(written);
    return 'updated';
  }

  /**
   * Tears down (and destroys, when nothing holds it); whether this removed it: it was there and
   * not tearing down already.
   */
  async #release(key: string, resource: Draft): Promise<boolean> {
    this.#returning.delete(key);
    const pointer = toPointer(resource.metadata);
    try {
      // Torn down already (another process applying the same manifests got there first): it is
      // still destroyed when ready, but this apply did not remove it.
      const already = (await this.#find(pointer))?.metadata.phase === 'tearingDown';
      if (await this.#state.teardown(pointer)) await this.#state.destroy(pointer);
      else this.#releasing.set(key, pointer);
      return !already;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async #find(pointer: Pointer): Promise<Resource | undefined> {
    try {
      return await this.#state.get(pointer);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

/**
 * The labels and annotations an earlier apply set (only their keys matter), the owners its
 * owner references named, and the spec it wrote (of a recorded apply: the kept spec fields it
 * set, as keys).
 */
export interface LastApplied {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly NamedOwner[];
  readonly spec?: unknown;
}

/** What an applied-set entry recorded of its apply, when it recorded it. */
export function appliedKeys(entry: AppliedEntry | undefined): LastApplied | undefined {
  if (
    entry?.labels === undefined &&
    entry?.annotations === undefined &&
    entry?.ownerReferences === undefined &&
    entry?.specFields === undefined
  ) {
    return undefined;
  }
  const record = (keys: readonly string[] | undefined): Record<string, string> =>
    Object.fromEntries((keys ?? []).map((key) => [key, '']));
  return {
    labels: record(entry.labels),
    annotations: record(entry.annotations),
    ...(entry.ownerReferences === undefined ? {} : { ownerReferences: entry.ownerReferences }),
    ...(entry.specFields === undefined ? {} : { spec: record(entry.specFields) }),
  };
}

function sameContent(a: Draft, b: Draft): boolean {
  return resourceEqual(
    { metadata: { ...a.metadata, version: 0, finalizers: [] }, spec: a.spec },
    { metadata: { ...b.metadata, version: 0, finalizers: [] }, spec: b.spec },
  );
}
