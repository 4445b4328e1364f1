import {
  kindCovers,
  type Pointer,
  type TypedKind,
  type TypedPointer,
} from '../resource/pointer.js';
import type { KubernetesKind } from '../resource/definition.js';
import type { Draft, Resource } from '../resource/resource.js';
import { isNotFound } from '../errors.js';
import { rejectWith, SETTLED } from '../settled.js';
import type { ListOptions, OwnerOptions, UpdateOptions, Updater } from '../state/state.js';
import { isSyncCore, type ModifyProgress, type SyncCore } from '../state/sync-core.js';
import { teardownSignal } from '../state/teardown-signal.js';
import type { Clock, Timer } from './clock.js';
import type {
  ControllerContext,
  ControllerCreateOptions,
  ControllerModifyOptions,
  Input,
  Output,
} from './controller.js';
import {
  emptyIdDenied,
  finalizerDenied,
  namespacedOwnerDenied,
  readDenied,
  writeDenied,
} from '../errors.js';
import type { ControllerMetrics } from './metrics.js';
import { RateLimiter } from './rate-limiter.js';
import { WriteBoundError } from './write-bound.js';
import { ControllerStoppedError } from './stopping.js';
import type { RuntimeHost } from './runtime-host.js';
import type { WriteOp } from '../record/run-record.js';
import { isThenable } from '../is-thenable.js';

/** What the facade needs of the runtime that hosts its controller. */
export type FacadeHost = Pick<
  RuntimeHost,
  | 'state'
  | 'clock'
  | 'onWrite'
  | 'writes'
  | 'maxWrites'
  | 'setWaitTimer'
  | 'setUnawaitedTimer'
  | 'changeRateLimit'
  | 'writesInFlight'
  | 'recorder'
  | 'kubernetesKind'
>;

const FINALIZER_KINDS = new Set(['strong', 'primary', 'mapped']);

/** The options of a modify called without any. */
const NO_OPTIONS: ControllerModifyOptions = Object.freeze({});

/**
 * `fn` noting its progress, for a state without `modifyNow` (which notes it itself). Not an async
 * function: a synchronous `fn` then costs no promise.
 */
function tracking<S>(fn: Updater<S>, progress: ModifyProgress): Updater<S> {
  return (draft) => {
    progress.handed = draft.metadata.version;
    const pending: unknown = fn(draft);
    if (!isThenable(pending)) {
      progress.applied = true;
      return undefined;
    }
    return Promise.resolve(pending).then(() => {
      progress.applied = true;
    });
  };
}

/**
 * The guarded view of the state a controller gets: reads only of its inputs and outputs, writes
 * only of its outputs (owned by it), finalizer changes only on strong inputs. A violation fails
 * that one call with an {@link AccessError}.
 *
 * `metrics.reads` and `metrics.writes` count the state calls each method makes, the way COSI's
 * metrics wrapper counts them under its state wrapper: a get, list or watch is a read; a create,
 * update or destroy is a write, attempted, so a failed one counts too; `modify` is a read, then
 * either a create (a write) or a second read and an update when something changed; a teardown or
 * a finalizer change is a read, then a read and an update when it changes something. What
 * actually changed the state is reported to the runtime apart from these counters.
 */
export class ControllerFacade implements ControllerContext {
  readonly #outputs: ReadonlySet<string>;
  /**
   * Only with the runtime's `changeRateLimit`: then every write first waits for its turn, before
   * any other check, as in COSI (tested inline so that an unlimited write costs no extra await).
   */
  readonly #limiter: RateLimiter | undefined;
  /**
   * With a recorder installed: the reconcile to which a call is recorded, read synchronously as
   * the call starts (see {@link scopedTo}), so concurrent reconciles each get their own.
   */
  recordSeq = 0;
  /** The state's options of a modify without options. */
  readonly #ownOptions: UpdateOptions;
  /** The state's synchronous fast path, when it has one (the in-memory state does). */
  readonly #sync: SyncCore | undefined;
  /** Closed ({@link close}): the controller stopped, and every write is refused. */
  #closed = false;
  /** Writes handed to the state and not settled yet. */
  #writing = 0;
  /** Resolves {@link close}'s promise once the last write in hand has settled. */
  #drained: (() => void) | undefined;

  constructor(
    readonly name: string,
    outputs: readonly Output[],
    /** The controller's current inputs (they can change at run time). */
    private readonly inputs: () => readonly Input[],
    readonly metrics: ControllerMetrics,
    private readonly host: FacadeHost,
    /** Aborts when the controller stops: ends rate-limit waits and teardown signals. */
    private readonly lifetime?: AbortSignal,
    /**
     * Told, just before an `addFinalizer` of this controller writes, the version that write will
     * make and the finalizers it adds; told `undefined` after it when it did not make it.
     */
    private readonly onOwnFinalizerWrite?: (
      pointer: Pointer,
      write: { readonly version: number; readonly finalizers: readonly string[] } | undefined,
    ) => void,
  ) {
    this.#outputs = new Set(outputs.map((o) => o.type));
    this.#ownOptions = Object.freeze({ owner: name });
    this.#sync = isSyncCore(host.state) ? host.state : undefined;
    const limit = host.changeRateLimit;
    this.#limiter =
      limit === undefined
        ? undefined
        : new RateLimiter({ now: () => host.clock.now(), setTimer: host.setWaitTimer }, limit);
  }

  get clock(): Clock {
    return this.host.clock;
  }

  setDeadline(ms: number, fn: () => void): Timer {
    return this.host.setUnawaitedTimer(ms, fn);
  }

  get writesInFlight(): number {
    return this.host.writesInFlight;
  }

  kubernetesKind(type: string): KubernetesKind | undefined {
    return this.host.kubernetesKind?.(type);
  }

  // `get` and `find` are the reads of every reconcile: not async functions, so that the state's
  // own promise is handed on instead of wrapped in another (which costs two more turns of the
  // microtask queue per read). A refused read still rejects, it never throws.
  get<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S>> {
    const seq = this.recordSeq;
    const denied = this.#readRefusal(pointer);
    if (denied) return Promise.reject(denied);
    this.metrics.reads++;
    const recorder = this.host.recorder;
    if (recorder === undefined) return this.host.state.get<S>(pointer);
    return this.host.state.get<S>(pointer).then((resource) => {
      recorder.read(seq, [resource]);
      return resource;
    });
  }

  peek<S = unknown>(pointer: Pointer): Resource<S> | undefined {
    const denied = this.#readRefusal(pointer);
    if (denied) throw denied;
    return this.host.state.lastSeen?.(pointer) as Resource<S> | undefined;
  }

  find<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S> | undefined> {
    const version = this.#peekVersion(pointer);
    // A missing resource is the common case here: answer it without building an error.
    if (version === 0) {
      const denied = this.#readRefusal(pointer);
      if (denied) return Promise.reject(denied);
      this.metrics.reads++;
      return SETTLED;
    }
    // The state has just said it holds the resource (`peekVersion` answers synchronously, as
    // does the state's read): the get finds it.
    if (version !== undefined) return this.get<S>(pointer);
    return this.get<S>(pointer).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
  }

  async list<S = unknown>(kind: TypedKind<S>, options?: ListOptions): Promise<Resource<S>[]> {
    const seq = this.recordSeq;
    this.#checkRead({ ...kind, id: '' }, true);
    this.metrics.reads++;
    const recorder = this.host.recorder;
    if (recorder === undefined) return this.host.state.list<S>(kind, options);
    const resources = await this.host.state.list<S>(kind, options);
    recorder.read(seq, resources);
    return resources;
  }

  async teardownSignal(pointer: Pointer, signal?: AbortSignal): Promise<AbortSignal> {
    this.#checkRead(pointer, false);
    // A watch, which COSI's metrics count as a read.
    this.metrics.reads++;
    const parents = [this.lifetime, signal].filter((s) => s !== undefined);
    const parent = parents.length > 1 ? AbortSignal.any(parents) : parents[0];
    return teardownSignal(this.host.state, pointer, parent);
  }

  async create<S>(
    resource: Draft<S> | Resource<S>,
    options: ControllerCreateOptions = {},
  ): Promise<Resource<S>> {
    const seq = this.recordSeq;
    try {
      if (this.#limiter) await this.#limiter.wait(this.lifetime);
      this.#checkWrite(resource.metadata, 'create');
      this.#checkOwners(resource, 'create');
      this.metrics.writes++;
      const stored = await this.#inHand(
        this.host.state.create(resource, { owner: this.#owner(options) }),
      );
      this.#changed(seq, stored.metadata, 'create', stored);
      return stored;
    } finally {
      this.settled(resource.metadata);
    }
  }

  async update<S>(
    resource: Draft<S> | Resource<S>,
    options: Omit<UpdateOptions, 'owner'> = {},
  ): Promise<Resource<S>> {
    const seq = this.recordSeq;
    try {
      if (this.#limiter) await this.#limiter.wait(this.lifetime);
      this.#checkWrite(resource.metadata, 'update');
      this.#checkOwners(resource, 'update');
      this.metrics.writes++;
      const stored = await this.#inHand(
        this.host.state.update(resource, { ...options, owner: this.name }),
      );
      this.#changed(seq, stored.metadata, 'update', stored);
      return stored;
    } finally {
      this.settled(resource.metadata);
    }
  }

  // `modify` and `modifyWithResult` are not async functions either: the work after the state's
  // write is one reaction on the state's promise, instead of an await per layer (a controller's
  // modify went through four promises).
  modify<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options: ControllerModifyOptions = NO_OPTIONS,
  ): Promise<void> {
    return this.#modify(empty, fn, options, false) as Promise<void>;
  }

  modifyWithResult<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options: ControllerModifyOptions = NO_OPTIONS,
  ): Promise<Resource<S>> {
    return this.#modify(empty, fn, options, true) as Promise<Resource<S>>;
  }

  /** Told of the resource of every create, update and modify once it has settled, either way. */
  protected settled(_pointer: Pointer): void {}

  #modify<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options: ControllerModifyOptions,
    withResult: boolean,
  ): Promise<Resource<S> | undefined> {
    const seq = this.recordSeq;
    if (this.#limiter === undefined) return this.#modifyNow(seq, empty, fn, options, withResult);
    return this.#limiter.wait(this.lifetime).then(
      () => this.#modifyNow(seq, empty, fn, options, withResult),
      (error: unknown) => this.#failed(empty.metadata, error),
    );
  }

  #modifyNow<S>(
    seq: number,
    empty: Draft<S>,
    fn: Updater<S>,
    options: ControllerModifyOptions,
    withResult: boolean,
  ): Promise<Resource<S> | undefined> {
    try {
      this.#checkWrite(empty.metadata, 'modify');
    } catch (error) {
      return this.#failed(empty.metadata, error);
    }
    const updater = this.#clusterScoped(empty.metadata.type) ? this.#ownersChecked(fn) : fn;
    const peeked = this.#peekVersion(empty.metadata);
    // How far `fn` got: the version of the draft the state handed it last (0: it creates; what
    // the state read, by which a state that cannot be peeked, etcd, still tells a write from a
    // no-op), and whether it ran to the end (only then did the state go on to write).
    const progress: ModifyProgress = { handed: undefined, applied: false };
    this.metrics.reads++;
    if (peeked !== undefined && peeked > 0) this.metrics.reads++;
    const state = this.host.state;
    const stateOptions = this.#updateOptions(options);
    let result: Resource<S> | Promise<Resource<S>>;
    // Settled in `#modified` or `#modifyFailed`, whichever answers.
    this.#writing++;
    try {
      // A state that can write synchronously (the in-memory one) answers a synchronous `fn` with
      // the stored resource itself: the bookkeeping below then runs at once, and the caller's
      // await is the only turn of the microtask queue a write costs. It notes the progress
      // itself; another state is handed `fn` wrapped to note it.
      const sync = this.#sync;
      result = sync
        ? sync.modifyNow(empty, updater, stateOptions, progress)
        : state.modifyWithResult(empty, tracking(updater, progress), stateOptions);
    } catch (error) {
      return this.#modifyFailed(empty, error, peeked, progress);
    }
    if (!isThenable(result)) {
      try {
        const value = this.#modified(seq, empty, result, peeked, progress, withResult);
        // A plain `modify` answers nothing: the one settled promise does, not a new one per write.
        return value === undefined ? SETTLED : Promise.resolve(value);
      } catch (error) {
        return rejectWith(error);
      }
    }
    return result.then(
      (stored) => this.#modified(seq, empty, stored, peeked, progress, withResult),
      (error: unknown) => this.#modifyFailed(empty, error, peeked, progress),
    );
  }

  /**
   * The bookkeeping of a modify the state has answered: what it wrote, and that it settled.
   * `peeked` is the version peeked before (`undefined`: the state cannot be peeked), `progress`
   * how far `fn` got.
   */
  #modified<S>(
    seq: number,
    empty: Draft<S>,
    stored: Resource<S>,
    peeked: number | undefined,
    progress: ModifyProgress,
    withResult: boolean,
  ): Resource<S> | undefined {
    this.#wrote();
    const before = this.#readBefore(peeked, progress.handed);
    const existed = before !== undefined && before > 0;
    const changed = before === undefined || stored.metadata.version !== before;
    if (progress.applied && (!existed || changed)) this.metrics.writes++;
    if (changed) {
      const op = stored.metadata.version === 1 ? 'create' : 'update';
      this.#changed(seq, stored.metadata, op, stored);
    }
    this.settled(empty.metadata);
    return withResult ? stored : undefined;
  }

  /** A modify the state refused: what it read and wrote counted, then {@link #failed}. */
  #modifyFailed(
    empty: Draft,
    error: unknown,
    peeked: number | undefined,
    progress: ModifyProgress,
  ): Promise<never> {
    this.#wrote();
    this.#readBefore(peeked, progress.handed);
    if (progress.applied) this.metrics.writes++;
    return this.#failed(empty.metadata, error);
  }

  /**
   * The version a modify found: the peek, or for a state that cannot be peeked (etcd) the version
   * of the draft it handed `fn`, whose read of a resource found is counted here (a peek's was
   * counted at once).
   */
  #readBefore(peeked: number | undefined, handed: number | undefined): number | undefined {
    if (peeked !== undefined) return peeked;
    if (handed !== undefined && handed > 0) this.metrics.reads++;
    return handed;
  }

  /** A write that failed: settled all the same, and rejected with its error. */
  async #failed(pointer: Pointer, error: unknown): Promise<never> {
    this.settled(pointer);
    throw error;
  }

  async teardown(pointer: Pointer, options: OwnerOptions = {}): Promise<boolean> {
    const seq = this.recordSeq;
    if (this.#limiter) await this.#limiter.wait(this.lifetime);
    this.#checkWrite(pointer, 'tear down');
    const before = this.#peekVersion(pointer);
    this.metrics.reads++;
    let ready: boolean;
    try {
      ready = await this.#inHand(
        this.host.state.teardown(pointer, { owner: options.owner ?? this.name }),
      );
    } catch (error) {
      // Found, but the update was refused (another owner): a read and a write were made.
      if (!isNotFound(error)) this.#countUpdate();
      throw error;
    }
    if (before === undefined || this.#peekVersion(pointer) !== before) {
      this.#countUpdate();
      this.#changed(seq, pointer, 'teardown');
    }
    return ready;
  }

  async destroy(pointer: Pointer, options: OwnerOptions = {}): Promise<void> {
    const seq = this.recordSeq;
    if (this.#limiter) await this.#limiter.wait(this.lifetime);
    this.#checkWrite(pointer, 'destroy');
    this.metrics.writes++;
    await this.#inHand(this.host.state.destroy(pointer, { owner: options.owner ?? this.name }));
    this.#changed(seq, pointer, 'destroy');
  }

  async addFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void> {
    const seq = this.recordSeq;
    if (this.#limiter) await this.#limiter.wait(this.lifetime);
    this.#checkFinalizer(pointer);
    const before = this.#peekVersion(pointer);
    this.metrics.reads++;
    // Announced before the write: its event may be delivered before this call resumes. A state
    // that cannot be peeked (etcd) writes over the version the caller read, when it passed the
    // metadata it read: a stale one only makes the announcement match no event.
    const base = before ?? versionOf(pointer);
    const announce = base !== undefined && base > 0 ? this.onOwnFinalizerWrite : undefined;
    const announced = (base ?? 0) + 1;
    announce?.(pointer, { version: announced, finalizers });
    let after: number | undefined;
    let failed = true;
    try {
      await this.#inHand(this.host.state.addFinalizer(pointer, ...finalizers));
      failed = false;
    } finally {
      after = this.#peekVersion(pointer);
      // Not the announced version (it failed, changed nothing, or raced another write): the
      // announcement goes. Unpeekable, only a failure is known: see the adapter's `#isEcho`.
      if (announce && (failed || (after !== undefined && after !== announced))) {
        announce(pointer, undefined);
      }
    }
    this.#finalizersChanged(seq, pointer, before, after);
  }

  /**
   * A resource that is already gone holds no finalizers, so releasing one is done: as in COSI's
   * controller state adapter, not-found is not an error (a controller releasing an input that was
   * destroyed meanwhile must not crash and restart).
   */
  async removeFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void> {
    const seq = this.recordSeq;
    if (this.#limiter) await this.#limiter.wait(this.lifetime);
    this.#checkFinalizer(pointer);
    const before = this.#peekVersion(pointer);
    this.metrics.reads++;
    try {
      await this.#inHand(this.host.state.removeFinalizer(pointer, ...finalizers));
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    this.#finalizersChanged(seq, pointer, before);
  }

  /**
   * This facade for one recorded reconcile: every call first names it, so that reconciles
   * running at once (a queue controller's `concurrency`) each record their own reads and writes.
   * Made only while recording.
   */
  scopedTo(seq: number): this {
    return new Proxy(this, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]): unknown => {
          // Read synchronously by the call; reset after, so a call from outside any reconcile
          // (a run hook) is not put on a finished one.
          target.recordSeq = seq;
          try {
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          } finally {
            target.recordSeq = 0;
          }
        };
      },
    });
  }

  /** Whether this controller may read the resource (or list the kind). */
  canRead(pointer: Pointer, listing: boolean): boolean {
    if (this.#outputs.has(pointer.type)) return true;
    for (const input of this.inputs()) {
      // An input of every namespace reads the type in any (and lists it in all of them at once).
      if (!kindCovers(input, pointer)) continue;
      if (input.id === undefined || (!listing && input.id === pointer.id)) return true;
    }
    return false;
  }

  /** The state's options of a modify: the caller's, with the owner it stamps. */
  #updateOptions(options: ControllerModifyOptions): UpdateOptions {
    // No options (the usual call): no object to copy them from.
    if (options === NO_OPTIONS) return this.#ownOptions;
    const { noOwner: _, ...update } = options;
    return { ...update, owner: this.#owner(options) };
  }

  /** The owner a create or modify stamps: the controller, or nobody when asked. */
  #owner(options: { readonly noOwner?: boolean }): string {
    return options.noOwner === true ? '' : this.name;
  }

  #checkRead(pointer: Pointer, listing: boolean): void {
    if (!this.canRead(pointer, listing)) throw this.#readDenied(pointer, listing);
  }

  /** The error refusing a read of one resource, if it is refused. */
  #readRefusal(pointer: Pointer): Error | undefined {
    return this.canRead(pointer, false) ? undefined : this.#readDenied(pointer, false);
  }

  /** The refusal of a read, naming the ids its inputs of that type are pinned to, if any. */
  #readDenied(pointer: Pointer, listing: boolean): Error {
    const pinned = this.inputs()
      .filter((input) => kindCovers(input, pointer))
      .flatMap((input) => (input.id === undefined ? [] : [input.id]));
    return readDenied(this.name, pointer, listing, pinned, this.readInputKind());
  }

  /**
   * The input kind a refused read's hint tells to declare: a queue controller's (this facade's
   * own) takes `mapped`, a whole-world controller's (its subclass) `weak`.
   */
  protected readInputKind(): 'weak' | 'mapped' {
    return 'mapped';
  }

  /**
   * Refuses every write from now on: the controller has stopped. Resolves once the writes it had
   * already handed to the state have settled (a modify whose updater still runs, a request to
   * etcd), so none of them lands after its caller's stop.
   */
  close(): Promise<void> {
    this.#closed = true;
    if (this.#writing === 0) return Promise.resolve();
    return new Promise<void>((resolve) => (this.#drained = resolve));
  }

  /** Counts `write`, handed to the state, as in hand until it settles (see {@link close}). */
  async #inHand<T>(write: Promise<T>): Promise<T> {
    this.#writing++;
    try {
      return await write;
    } finally {
      this.#wrote();
    }
  }

  /** A write handed to the state has settled. */
  #wrote(): void {
    if (--this.#writing === 0 && this.#drained !== undefined) {
      this.#drained();
      this.#drained = undefined;
    }
  }

  #checkWrite(pointer: Pointer, op: string): void {
    if (this.#closed) throw new ControllerStoppedError(this.name, pointer);
    if (!this.#outputs.has(pointer.type)) throw writeDenied(this.name, pointer, op);
    if (pointer.id === '') throw emptyIdDenied(this.name, pointer, op);
    this.#checkWriteBound(pointer);
  }

  /**
   * A cluster-scoped resource may not reference a namespace-scoped owner (see
   * `RuntimeOptions.kubernetesKind`): refused before it is written.
   */
  #checkOwners(resource: Draft | Resource, op: string): void {
    if (!this.#clusterScoped(resource.metadata.type)) return;
    const owner = resource.metadata.ownerReferences.find((ref) => !this.#clusterScoped(ref.type));
    if (owner !== undefined) throw namespacedOwnerDenied(this.name, resource.metadata, op, owner);
  }

  #clusterScoped(type: string): boolean {
    const kindOf = this.host.kubernetesKind;
    return kindOf !== undefined && kindOf(type)?.namespaced === false;
  }

  /** `fn`, then {@link #checkOwners} on the draft it filled in, before the state writes it. */
  #ownersChecked<S>(fn: Updater<S>): Updater<S> {
    return (draft) => {
      const pending: unknown = fn(draft);
      if (!isThenable(pending)) {
        this.#checkOwners(draft, 'modify');
        return undefined;
      }
      return Promise.resolve(pending).then(() => this.#checkOwners(draft, 'modify'));
    };
  }

  /** Past the run's write bound, every write is refused (see {@link WriteBoundError}). */
  #checkWriteBound(pointer: Pointer): void {
    const maxWrites = this.host.maxWrites();
    if (this.host.writes() > maxWrites) throw new WriteBoundError(this.name, pointer, maxWrites);
  }

  #checkFinalizer(pointer: Pointer): void {
    if (this.#closed) throw new ControllerStoppedError(this.name, pointer);
    this.#checkWriteBound(pointer);
    for (const input of this.inputs()) {
      if (
        FINALIZER_KINDS.has(input.kind) &&
        kindCovers(input, pointer) &&
        (input.id === undefined || input.id === pointer.id)
      ) {
        return;
      }
    }
    throw finalizerDenied(this.name, pointer);
  }

  /**
   * The stored version (0 when missing), read synchronously when the state can (the in-memory one
   * can); how the facade tells a write from a no-op without a second read. `undefined` when the
   * state cannot say, and then every call counts as a write.
   */
  #peekVersion(pointer: Pointer): number | undefined {
    return this.#sync?.peekVersion(pointer);
  }

  /**
   * A finalizer change of a resource that exists reads it again, and writes if it changed.
   * `after` is the version now, when the caller has just peeked it.
   */
  #finalizersChanged(
    seq: number,
    pointer: Pointer,
    before: number | undefined,
    after = this.#peekVersion(pointer),
  ): void {
    this.metrics.reads++;
    if (before !== undefined && after === before) return;
    this.metrics.writes++;
    this.#changed(seq, pointer, 'finalizers');
  }

  /** The read-then-update a teardown makes when the resource is not tearing down yet. */
  #countUpdate(): void {
    this.metrics.reads++;
    this.metrics.writes++;
  }

  /** The state changed: the runtime counts it toward convergence and its bounds. */
  #changed(seq: number, pointer: Pointer, op: WriteOp, stored?: Resource): void {
    this.host.onWrite(this.name, pointer);
    const recorder = this.host.recorder;
    if (recorder === undefined) return;
    const version = stored?.metadata.version ?? this.#peekVersion(pointer) ?? 0;
    recorder.wrote(seq, op, pointer, version, stored);
  }
}

/** The version a pointer carries when it is a resource's metadata (what its holder read). */
function versionOf(pointer: Pointer): number | undefined {
  const version = (pointer as { readonly version?: unknown }).version;
  return typeof version === 'number' ? version : undefined;
}
