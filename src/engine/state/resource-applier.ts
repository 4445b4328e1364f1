import { toPointer, type Pointer } from '../resource/pointer.js';
import { isDestroyReady, resourceEqual, type Draft, type Resource } from '../resource/resource.js';
import { isNotFound } from '../errors.js';
import type { State } from './state.js';

/** A resource to apply, with a stable key (its pointer key) to diff by. */
export interface KeyedResource {
  readonly key: string;
  readonly resource: Draft;
}

/** What an apply changed, by key. */
export interface ApplyResult {
  readonly created: string[];
  readonly updated: string[];
  readonly tornDown: string[];
  readonly unchanged: string[];
}

/**
 * Keeps the user's resources (the manifests) in a state, as `kubectl apply` keeps a cluster:
 * each {@link apply} is given the whole desired set and writes only its difference from the set
 * applied before: new resources are created, changed ones updated (spec, labels, annotations;
 * the user's resources have no owner), and the ones that disappeared torn down.
 *
 * A torn-down resource that a controller still holds with a finalizer is *released*: the applier
 * remembers it and, as its owner, destroys it once the finalizers are gone
 * ({@link destroyReleased}). So re-applying after a one-file edit costs what the edit changed.
 */
export class ResourceApplier {
  readonly #state: State;
  #applied: readonly KeyedResource[] = [];
  /** Torn down, still held by finalizers, by key. */
  readonly #releasing = new Map<string, Pointer>();

  constructor(state: State) {
    this.#state = state;
  }

  /** How many resources the last apply gave. */
  get size(): number {
    return this.#applied.length;
  }

  /** How many torn-down resources wait for their finalizers before {@link destroyReleased}. */
  get releasing(): number {
    return this.#releasing.size;
  }

  /** Makes the state hold `desired`, writing only what differs from the last applied set. */
  async apply(desired: readonly KeyedResource[]): Promise<ApplyResult> {
    const result: ApplyResult = { created: [], updated: [], tornDown: [], unchanged: [] };
    const before = new Map(this.#applied.map((p) => [p.key, p.resource]));
    const seen = new Set<string>();
    for (const { key, resource } of desired) {
      seen.add(key);
      this.#releasing.delete(key);
      const old = before.get(key);
      if (old && sameContent(old, resource)) {
        result.unchanged.push(key);
        continue;
      }
      result[await this.#write(resource)].push(key);
    }
    for (const { key, resource } of this.#applied) {
      if (seen.has(key)) continue;
      if (await this.#release(key, resource)) result.tornDown.push(key);
    }
    this.#applied = desired;
    return result;
  }

  /**
   * Destroys the released resources that no finalizer holds any more.
   * @returns whether it destroyed any (the controllers then have new events to converge on).
   */
  async destroyReleased(): Promise<boolean> {
    let destroyed = false;
    for (const [key, pointer] of this.#releasing) {
      const current = await this.#find(pointer);
      if (current === undefined) {
        this.#releasing.delete(key);
      } else if (isDestroyReady(current)) {
        await this.#state.destroy(pointer);
        this.#releasing.delete(key);
        destroyed = true;
      }
    }
    return destroyed;
  }

  /** Creates or updates; an update that changes nothing (a no-op write) is `unchanged`. */
  async #write(resource: Draft): Promise<'created' | 'updated' | 'unchanged'> {
    const current = await this.#find(resource.metadata);
    if (current === undefined) {
      await this.#state.create(resource);
      return 'created';
    }
    const written = await this.#state.updateWithConflicts(
      resource.metadata,
      (draft) => {
        draft.spec = resource.spec;
        draft.metadata.labels = { ...resource.metadata.labels };
        draft.metadata.annotations = { ...resource.metadata.annotations };
      },
      { expectedPhase: 'any' },
    );
    return written.metadata.version === current.metadata.version ? 'unchanged' : 'updated';
  }

  /** Tears down (and destroys, when nothing holds it); whether it was still there. */
  async #release(key: string, resource: Draft): Promise<boolean> {
    const pointer = toPointer(resource.metadata);
    try {
      if (await this.#state.teardown(pointer)) await this.#state.destroy(pointer);
      else this.#releasing.set(key, pointer);
      return true;
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

function sameContent(a: Draft, b: Draft): boolean {
  return resourceEqual(
    { metadata: { ...a.metadata, version: 0, finalizers: [] }, spec: a.spec },
    { metadata: { ...b.metadata, version: 0, finalizers: [] }, spec: b.spec },
  );
}
