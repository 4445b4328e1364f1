import { compareStrings } from '../compare-strings.js';
import { checkUpdaterDraft, isNotFound, isRetryableConflict } from '../errors.js';
import { isThenable } from '../is-thenable.js';
import { metadataEqual, withFinalizers } from '../resource/metadata.js';
import { freezeSharing } from '../resource/plain-data.js';
import {
  ALL_NAMESPACES,
  type Kind,
  type Pointer,
  type TypedKind,
  type TypedPointer,
} from '../resource/pointer.js';
import { toDraft, type Creatable, type Draft, type Resource } from '../resource/resource.js';
import { rejectWith, SETTLED } from '../settled.js';
import type { StateCore } from './state-core.js';
import type {
  AggregatedWatchListener,
  CreateOptions,
  ListOptions,
  OwnerOptions,
  State,
  UpdateOptions,
  Updater,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from './state.js';
import { isSyncCore, type SyncCore } from './sync-core.js';
import { checkPhase } from './write-checks.js';

/** Drops what a write resolved to: `modify` answers nothing. */
const nothing = (): void => undefined;

const toTearingDown = (draft: Draft): void => {
  draft.metadata.phase = 'tearingDown';
};

/**
 * The {@link State} over a {@link StateCore} (COSI's `WrapCore`): the core's primitives as they
 * are, and the operations derived from them written once, here, for every backend: `modify`,
 * `updateWithConflicts`, `teardown`, the finalizer changes and `teardownAndDestroy`.
 *
 * A core that can answer synchronously ({@link SyncCore}, checked once, when the wrapper is made)
 * writes a `modify` itself, in the same call, so that a write with a synchronous updater costs
 * one promise and no turn of the microtask queue.
 *
 * A class, so that a backend can hand on its core's own capabilities beside the state's (the
 * in-memory state does: `InMemoryState`).
 */
export class CoreState implements State {
  readonly #core: StateCore;
  readonly #sync: SyncCore | undefined;
  /** The core's {@link StateCore.lastSeen}, checked once here; none: every write reads first. */
  readonly #lastSeen: ((pointer: Pointer) => Resource | undefined) | undefined;

  constructor(core: StateCore) {
    this.#core = core;
    this.#sync = isSyncCore(core) ? core : undefined;
    this.#lastSeen = core.lastSeen?.bind(core);
  }

  // The primitives, as the core has them. Not async functions: the core's own promise is handed
  // on, not wrapped in another.

  get<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S>> {
    return this.#core.get(pointer) as Promise<Resource<S>>;
  }

  list<S = unknown>(kind: TypedKind<S>, options?: ListOptions): Promise<Resource<S>[]> {
    return this.#core.list(kind, options) as Promise<Resource<S>[]>;
  }

  create<S>(resource: Creatable<S>, options?: CreateOptions): Promise<Resource<S>> {
    return this.#core.create(resource, options) as Promise<Resource<S>>;
  }

  update<S>(resource: Draft<S> | Resource<S>, options?: UpdateOptions): Promise<Resource<S>> {
    return this.#core.update(resource, options) as Promise<Resource<S>>;
  }

  destroy(pointer: Pointer, options?: OwnerOptions): Promise<void> {
    return this.#core.destroy(pointer, options);
  }

  watch(pointer: Pointer, listener: WatchListener, options: WatchOptions = {}): Promise<void> {
    if (hasTailAndBookmark(options)) {
      return rejectWith(
        new TypeError('watch: use either tailEvents or startFromBookmark, not both'),
      );
    }
    return this.#core.watch(pointer, listener, options);
  }

  watchKind(kind: Kind, listener: WatchListener, options: WatchKindOptions = {}): Promise<void> {
    const misuse = watchKindMisuse(kind, options);
    if (misuse) return rejectWith(misuse);
    const delivery = { aggregated: false, listener, inline: options.inline === true } as const;
    return this.#core.watchKind(kind, delivery, options);
  }

  watchKindAggregated(
    kind: Kind,
    listener: AggregatedWatchListener,
    options: WatchKindOptions = {},
  ): Promise<void> {
    const misuse = watchKindMisuse(kind, options);
    if (misuse) return rejectWith(misuse);
    return this.#core.watchKind(kind, { aggregated: true, listener }, options);
  }

  kinds(): Promise<Kind[]> {
    return this.#core.kinds().then((kinds) => kinds.sort(byTypeThenNamespace));
  }

  lastSeen(pointer: Pointer): Resource | undefined {
    return this.#lastSeen?.(pointer);
  }

  // Derived: written once, over any core.

  updateWithConflicts<S = unknown>(
    pointer: Pointer,
    fn: Updater<S>,
    options: UpdateOptions = {},
  ): Promise<Resource<S>> {
    return this.#updateWithConflicts(pointer, fn as Updater<unknown>, options) as Promise<
      Resource<S>
    >;
  }

  // Not an async function: with a synchronous core and updater, the write answers the one settled
  // promise, and makes none of its own.
  modify<S>(empty: Draft<S>, fn: Updater<S>, options: UpdateOptions = {}): Promise<void> {
    const sync = this.#sync;
    if (sync === undefined)
      return this.#modify(empty, fn as Updater<unknown>, options).then(nothing);
    let result: Resource<S> | Promise<Resource<S>>;
    try {
      result = sync.modifyNow(empty, fn, options);
    } catch (error) {
      return rejectWith(error);
    }
    return isThenable(result) ? result.then(nothing) : SETTLED;
  }

  async modifyWithResult<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options: UpdateOptions = {},
  ): Promise<Resource<S>> {
    const sync = this.#sync;
    if (sync !== undefined) return sync.modifyNow(empty, fn, options);
    return (await this.#modify(empty, fn as Updater<unknown>, options)) as Resource<S>;
  }

  async teardown(pointer: Pointer, options: OwnerOptions = {}): Promise<boolean> {
    // A resource last seen running is torn down from that version without a read (a stale one
    // fails as a conflict, and the retry reads). One seen tearing down is read: its finalizers
    // decide what the caller does next, and they may have changed since.
    const seen = this.#lastSeen?.(pointer);
    let current = seen?.metadata.phase === 'running' ? undefined : await this.#core.get(pointer);
    if (current === undefined || current.metadata.phase !== 'tearingDown') {
      const asOwner: UpdateOptions = { owner: options.owner ?? '', expectedPhase: 'any' };
      current = await this.#updateWithConflicts(pointer, toTearingDown, asOwner, current);
    }
    return current.metadata.finalizers.length === 0;
  }

  async addFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void> {
    await this.#changeFinalizers(pointer, (current) => {
      // The usual call adds one finalizer: no closure over the list for it.
      if (finalizers.length === 1) {
        return current.includes(finalizers[0] as string) ? undefined : current.concat(finalizers);
      }
      const added = finalizers.filter(
        (f, i) => !current.includes(f) && finalizers.indexOf(f) === i,
      );
      // concat, not a spread: it allocates exactly the length.
      return added.length === 0 ? undefined : current.concat(added);
    });
  }

  async removeFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void> {
    await this.#changeFinalizers(pointer, (current) => {
      const kept = current.filter((f) => !finalizers.includes(f));
      return kept.length === current.length ? undefined : kept;
    });
  }

  async teardownAndDestroy(pointer: Pointer, options: OwnerOptions = {}): Promise<void> {
    const ready = await this.teardown(pointer, options);
    if (!ready) {
      const destroyed = await this.#waitFinalizersEmpty(pointer);
      if (destroyed) return;
    }
    try {
      await this.#core.destroy(pointer, options);
    } catch (error) {
      // Someone else (another teardownAndDestroy, the finalizer holder) destroyed it in between.
      if (isNotFound(error)) return;
      throw error;
    }
  }

  /**
   * Reads (unless `current` was just read), applies `fn` to a draft and writes it unless nothing
   * changed; a version conflict (someone wrote while `fn` ran) starts again from what they wrote.
   */
  async #updateWithConflicts(
    pointer: Pointer,
    fn: Updater<unknown>,
    options: UpdateOptions,
    read?: Resource,
  ): Promise<Resource> {
    // What the core last saw stands in for a read (see StateCore.lastSeen): a stale one fails
    // the write as a conflict, and the retry reads.
    const seen = read === undefined ? this.#lastSeen?.(pointer) : undefined;
    let current = read ?? seen ?? (await this.#core.get(pointer));
    let speculative = seen !== undefined;
    for (;;) {
      checkPhase(current, options);
      const draft = toDraft(current);
      await fn(draft);
      checkUpdaterDraft(current.metadata, draft.metadata);
      // Freezing and comparing in one walk; what did not change is shared with `current`, and a
      // core storing the frozen spec shares it rather than copying it.
      draft.spec = freezeSharing(draft.spec, current.spec);
      if (draft.spec === current.spec && metadataEqual(current.metadata, draft.metadata)) {
        if (!speculative) return current;
        // Nothing to write, by a version that may be stale: only a read can say so.
        const fresh = await this.#core.get(pointer);
        // The same object: the core saw no newer version (see StateCore.lastSeen).
        if (fresh === current) return fresh;
        current = fresh;
        speculative = false;
        continue;
      }
      try {
        return await this.#core.update(draft, options);
      } catch (error) {
        if (!isRetryableConflict(error)) throw error;
      }
      current = await this.#core.get(pointer);
      speculative = false;
    }
  }

  /** Create-or-update: `fn` fills a copy of `empty` when the resource is missing. */
  async #modify(empty: Draft, fn: Updater<unknown>, options: UpdateOptions): Promise<Resource> {
    let seen = this.#lastSeen?.(empty.metadata);
    // A core that tracks what it saw and never saw this resource: most likely it is new, and is
    // created without a read first; if it is there after all, the create fails and it is read.
    let unread = this.#lastSeen !== undefined && seen === undefined;
    for (;;) {
      if (seen !== undefined) {
        try {
          return await this.#updateWithConflicts(empty.metadata, fn, options);
        } catch (error) {
          // What was seen is gone (destroyed since): read, and create it if it is missing.
          if (!isNotFound(error)) throw error;
          seen = undefined;
          continue;
        }
      }
      const current = unread
        ? undefined
        : await this.#core.get(empty.metadata).catch(undefinedIfNotFound);
      unread = false;
      if (current !== undefined) {
        return this.#updateWithConflicts(empty.metadata, fn, options, current);
      }
      const draft = toDraft(empty);
      await fn(draft);
      // A renamed draft is refused as on an update, not created elsewhere.
      checkUpdaterDraft(empty.metadata, draft.metadata);
      try {
        return await this.#core.create(draft, { owner: options.owner ?? '' });
      } catch (error) {
        // Someone created it while `fn` ran: update it instead.
        if (!isRetryableConflict(error)) throw error;
      }
    }
  }

  /**
   * Finalizer changes touch metadata only: the new version shares the stored (frozen) spec
   * instead of copying it, which matters when every input of a controller gets one, and a
   * watcher can tell a finalizer-only change by the spec's identity. `change` answers the new
   * finalizers, or `undefined` when there is nothing to change.
   */
  async #changeFinalizers(
    pointer: Pointer,
    change: (current: readonly string[]) => readonly string[] | undefined,
  ): Promise<void> {
    const seen = this.#lastSeen?.(pointer);
    let current = seen ?? (await this.#core.get(pointer));
    let speculative = seen !== undefined;
    for (;;) {
      const finalizers = change(current.metadata.finalizers);
      if (finalizers === undefined) {
        if (!speculative) return;
        // Nothing to change, by a version that may be stale: only a read can say so.
        const fresh = await this.#core.get(pointer);
        if (fresh === current) return;
        current = fresh;
        speculative = false;
        continue;
      }
      const next = { metadata: withFinalizers(current.metadata, finalizers), spec: current.spec };
      try {
        await this.#core.update(next, { owner: current.metadata.owner, expectedPhase: 'any' });
        return;
      } catch (error) {
        if (!isRetryableConflict(error) && !(speculative && isNotFound(error))) throw error;
      }
      current = await this.#core.get(pointer);
      speculative = false;
    }
  }

  /** Resolves true if the resource was destroyed, false once its finalizers are gone. */
  #waitFinalizersEmpty(pointer: Pointer): Promise<boolean> {
    const controller = new AbortController();
    return new Promise<boolean>((resolve, reject) => {
      this.watch(
        pointer,
        (event) => {
          if (event.type === 'destroyed') {
            controller.abort();
            resolve(true);
          } else if (
            (event.type === 'created' || event.type === 'updated') &&
            event.resource.metadata.finalizers.length === 0
          ) {
            controller.abort();
            resolve(false);
          } else if (event.type === 'errored') {
            reject(event.error);
          }
        },
        { signal: controller.signal },
      ).catch(reject);
    });
  }
}

/** The {@link State} over `core`: see {@link CoreState}. */
export function wrapCore(core: StateCore): State {
  return new CoreState(core);
}

function undefinedIfNotFound(error: unknown): undefined {
  if (isNotFound(error)) return undefined;
  throw error;
}

function hasTailAndBookmark(options: WatchOptions): boolean {
  return Math.floor(options.tailEvents ?? 0) > 0 && options.startFromBookmark !== undefined;
}

/** The error for watch options that exclude each other, if they do. */
function watchKindMisuse(kind: Kind, options: WatchKindOptions): TypeError | undefined {
  const replays =
    Math.floor(options.tailEvents ?? 0) > 0 || options.startFromBookmark !== undefined;
  if (kind.namespace === ALL_NAMESPACES && (replays || options.bootstrapBookmark === true)) {
    // Each namespace has a history of its own: no one position stands for all of them.
    return new TypeError(
      'watchKind: a watch of every namespace (ALL_NAMESPACES) starts from now or from its contents (bootstrap): it takes no tailEvents, startFromBookmark or bootstrapBookmark',
    );
  }
  if (options.bootstrap === true && replays) {
    return new TypeError(
      'watchKind: bootstrap cannot be combined with tailEvents or startFromBookmark',
    );
  }
  if (hasTailAndBookmark(options)) {
    return new TypeError('watchKind: use either tailEvents or startFromBookmark, not both');
  }
  return undefined;
}

const byTypeThenNamespace = (a: Kind, b: Kind): number =>
  compareStrings(a.type, b.type) || compareStrings(a.namespace, b.namespace);
