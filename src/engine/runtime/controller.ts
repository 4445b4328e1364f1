import type {
  ListOptions,
  OwnerOptions,
  ResourceEvent,
  UpdateOptions,
  Updater,
} from '../state/state.js';
import type { KubernetesKind } from '../resource/definition.js';
import type { Kind, Pointer, TypedKind, TypedPointer } from '../resource/pointer.js';
import type { Creatable, Draft, Resource } from '../resource/resource.js';
import type { Phase } from '../resource/metadata.js';
import type { BackoffOptions } from './backoff.js';
import type { Clock, Timer } from './clock.js';
import type { InputChanges } from './input-changes.js';
import type { Logger } from './logger.js';

/** How a whole-world controller depends on a resource type. */
export type ControllerInputKind = 'weak' | 'strong' | 'destroyReady';
/** How a queue controller depends on a resource type. */
export type QInputKind = 'primary' | 'mapped' | 'mappedDestroyReady';
/** How any controller depends on a type: a whole-world or a queue controller's input kind. */
export type InputKind = ControllerInputKind | QInputKind;
/** `exclusive`: only this controller writes the type. `shared`: several do, each its own. */
export type OutputKind = 'exclusive' | 'shared';

/** Whether an edge kind of the dependency graph is an output (controller -> type), not an input. */
export const isOutputKind = (kind: InputKind | OutputKind): kind is OutputKind =>
  kind === 'exclusive' || kind === 'shared';

/** A declared input: what a controller may read and what wakes it. */
export interface Input<K extends InputKind = InputKind> {
  readonly namespace: string;
  readonly type: string;
  /** Only this one resource. */
  readonly id?: string;
  readonly kind: K;
}

/** A declared output: a type the controller may write (in any namespace). */
export interface Output {
  readonly type: string;
  readonly kind: OutputKind;
}

/** What a wakeup says: why, and which inputs changed since the previous pass began. */
export interface ReconcileEvent {
  readonly reason: 'start' | 'input' | 'requested' | 'restart';
  /**
   * The input resources with events since the previous pass of this run began (however many
   * events each had; see {@link InputChanges}). Absent on the first pass of a run (at start and after a
   * restart), which has no previous pass to count from: that pass should look at everything.
   */
  readonly changes?: InputChanges;
}

/** Reads a controller may do: only of its inputs and outputs. */
export interface ControllerReader {
  /** Typed by a typed pointer (`rt.get(VM.pointer('web-1'))`: `Resource<VMSpec>`). */
  get<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S>>;
  /** `undefined` instead of a not-found error. */
  find<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S> | undefined>;
  /** Typed by a typed kind (`rt.list(VM.kind())`: `Resource<VMSpec>[]`). */
  list<S = unknown>(kind: TypedKind<S>, options?: ListOptions): Promise<Resource<S>[]>;
  /**
   * A signal that aborts once the resource (an input or output) starts tearing down or is
   * destroyed, when `signal` aborts, or when the controller stops: COSI's
   * `ContextWithTeardown`, for work done on behalf of a resource that must stop when it goes.
   *
   * @example
   * const stop = await rt.teardownSignal(vm.metadata);
   * await provision(vm, { signal: stop });
   */
  teardownSignal(pointer: Pointer, signal?: AbortSignal): Promise<AbortSignal>;
  /**
   * The last version of the resource this process saw, without asking the state (the state's
   * `lastSeen`): `undefined` when it saw none, or when the state answers every read at once
   * anyway (in memory). It may be stale: for what later events will correct, as a pass that
   * skips what it already transformed. Absent on a reader that cannot peek.
   */
  peek?<S = unknown>(pointer: Pointer): Resource<S> | undefined;
  /**
   * The Kubernetes identity of a type as the runtime knows it (`RuntimeOptions.kubernetesKind`):
   * whether it is cluster-scoped, above all. Any type may be asked about. This makes a
   * controller's client the scheme the owner-reference helpers take
   * (`setControllerReference(ns, cm, { scheme: ctx.client })`). Absent on a reader that knows
   * no kinds.
   */
  kubernetesKind?(type: string): KubernetesKind | undefined;
}

/** Options of a controller's `create`. */
export interface ControllerCreateOptions {
  /**
   * Store the resource without an owner instead of the controller's name (COSI's
   * `WithCreateNoOwner`): a resource the user, not the controller, then manages.
   */
  readonly noOwner?: boolean;
}

/** Options of a controller's `modify` and `modifyWithResult`. */
export interface ControllerModifyOptions extends Omit<UpdateOptions, 'owner'> {
  /**
   * Create or update the resource as one without an owner (COSI's `WithModifyNoOwner`): it is
   * created unowned, and only an unowned resource is updated.
   */
  readonly noOwner?: boolean;
}

/**
 * Writes a controller may do: only of its outputs, each stamped with its name as owner (unless
 * `noOwner` says otherwise). With the runtime's `changeRateLimit`, each write first waits for its
 * turn.
 */
export interface ControllerWriter {
  create<S>(resource: Creatable<S>, options?: ControllerCreateOptions): Promise<Resource<S>>;
  update<S>(
    resource: Draft<S> | Resource<S>,
    options?: Omit<UpdateOptions, 'owner'>,
  ): Promise<Resource<S>>;
  modify<S>(empty: Draft<S>, fn: Updater<S>, options?: ControllerModifyOptions): Promise<void>;
  modifyWithResult<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options?: ControllerModifyOptions,
  ): Promise<Resource<S>>;
  /** True when the resource has no finalizers left. */
  teardown(pointer: Pointer, options?: OwnerOptions): Promise<boolean>;
  destroy(pointer: Pointer, options?: OwnerOptions): Promise<void>;
  /** Only on strong (or queue primary / mapped) inputs. */
  addFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void>;
  removeFinalizer(pointer: Pointer, ...finalizers: string[]): Promise<void>;
}

/** Everything a controller sees of the engine: a guarded view, not the engine itself. */
export interface ControllerContext extends ControllerReader, ControllerWriter {
  /** The controller's name, also the owner of what it writes. */
  readonly name: string;
  readonly clock: Clock;
  /**
   * Sets a timer that cuts work off when it fires (a timeout), not one that work waits for: on a
   * simulated clock, a convergence run does not jump to it while work in flight waits on the
   * outside world (a network call), until that work has had a second of wall time (see
   * `OutsideWait`). Absent on a context the runtime did not make (a test's double): use
   * `clock.setTimer` then.
   *
   * @example
   * const timer = rt.setDeadline?.(5000, () => abort.abort()) ?? rt.clock.setTimer(5000, () => abort.abort());
   */
  setDeadline?(ms: number, fn: () => void): Timer;
  /**
   * How many independent writes this controller may keep under way at once (the runtime's
   * `writesInFlight`; 1, one after another, when absent). Generic controllers pipeline their
   * writes up to it, each resource's writes still in order.
   */
  readonly writesInFlight?: number;
}

/** The runtime facade handed to a whole-world controller's `run`. */
export interface ControllerRuntime extends ControllerContext {
  /**
   * Input changes, coalesced: one pending reconcile however many events came. The first one is
   * queued at start. Ends when the controller is stopped.
   *
   * @example
   * for await (const _ of rt.events()) { ... reconcile ... }
   */
  events(): AsyncIterable<ReconcileEvent>;
  /** Asks for one more reconcile. */
  queueReconcile(): void;
  /** A healthy `run` never returns, so it says so here: the restart backoff starts over. */
  resetRestartBackoff(): void;
  /** Replaces the inputs (outputs are fixed at registration). */
  updateInputs(inputs: readonly Input<ControllerInputKind>[]): void;
  /**
   * Names the input the pass works on now (`undefined`: none in particular), so that a
   * supervisor that finds the project's code stuck (a loop that never yields) names the resource
   * as it does for a queue controller's. Cheap: a generic controller calls it before each
   * callback it makes on an input.
   */
  workingOn?(pointer: Pointer | undefined): void;
  /**
   * Starts recording which outputs this pass writes (every create, update and modify, failed
   * ones too), for {@link ControllerRuntime.cleanupOutputs} at its end. COSI's
   * `StartTrackingOutputs`.
   *
   * @throws Error when tracking is already on (the last pass did not call `cleanupOutputs`).
   */
  startTrackingOutputs(): void;
  /**
   * Ends the pass that `startTrackingOutputs` began: destroys every resource of `kinds` that this
   * controller owns and did not write in the pass (without a teardown, so outputs with finalizers
   * are not for this), then resets the restart backoff. COSI's `CleanupOutputs`.
   *
   * @example
   * for await (const _ of rt.events()) {
   *   rt.startTrackingOutputs();
   *   for (const int of await rt.list(Int.kind())) await rt.modify(Doubled.create(int.metadata.id), fill);
   *   await rt.cleanupOutputs(Doubled.kind());
   * }
   * @throws Error when tracking is not on.
   */
  cleanupOutputs(...kinds: Kind[]): Promise<void>;
}

/**
 * A whole-world controller: one loop that reads its inputs and writes its outputs on every
 * wakeup. A `run` that throws is restarted after an exponential backoff.
 */
export interface Controller {
  readonly name: string;
  readonly inputs: readonly Input<ControllerInputKind>[];
  readonly outputs: readonly Output[];
  /**
   * `false`: runs in every process of a long-lived runtime (`cosi run`), not only in the elected
   * leader, as controller-runtime's `NeedLeaderElection`. Leader-only by default.
   */
  readonly needLeaderElection?: boolean;
  /**
   * Do not wake for a change of a running input's finalizers alone, unless it removes this
   * controller's own finalizer (see `QSettings.skipFinalizerOnlyRequeue`): for a controller whose
   * pass reads of its running inputs' finalizers only whether its own is there (a transform). The
   * change is not in the next pass's `changes` either. Off by default, as in COSI.
   */
  readonly skipFinalizerOnlyWakeups?: boolean;
  run(rt: ControllerRuntime, signal: AbortSignal, log: Logger): Promise<void>;
}

/** The metadata a queue controller's `mapInput` receives. */
export interface ReducedMetadata extends Pointer {
  readonly phase: Phase;
  readonly labels: Readonly<Record<string, string>>;
  readonly finalizersEmpty: boolean;
}

/** Settings of a queue controller. */
export interface QSettings {
  readonly inputs: readonly Input<QInputKind>[];
  readonly outputs: readonly Output[];
  /**
   * Keys reconciled in parallel; 1 by default. `'writesInFlight'` follows the runtime's
   * `writesInFlight` (1 in memory, 32 on etcd under `cosi run`): for a controller whose reconcile
   * is little more than a write, so that its writes are pipelined as the generic controllers'
   * are. The queue never reconciles one key twice at once, so each resource's writes stay in
   * order either way.
   */
  readonly concurrency?: number | 'writesInFlight';
  /**
   * Runs beside the workers; restarted with backoff if it throws (the backoff starts over when
   * the run that failed lasted more than a minute, as in COSI). Done once it returns.
   */
  readonly runHook?: (rt: QRuntime, signal: AbortSignal, log: Logger) => Promise<void>;
  /**
   * Called once the workers have stopped (the reconciles in flight and the run hook ended, or
   * the stop's grace period passed and the controller's writes are refused). What it throws is
   * logged; the stop goes on.
   */
  readonly shutdownHook?: () => void;
  /** This controller's per-item backoff, over the runtime's (`RuntimeOptions.backoff`). */
  readonly backoff?: BackoffOptions;
  /**
   * Do not requeue a primary input for the change this controller's own `addFinalizer` made to
   * it (the change that only adds that finalizer). For a controller whose reconcile reads
   * nothing from its input's finalizers, so that reconciling that version again would only
   * repeat the work: a queue transform. Any other change, by anyone, is queued as always. Off
   * by default: a controller that adds its finalizer and returns counts on that requeue.
   */
  readonly skipOwnFinalizerRequeue?: boolean;
  /**
   * Do not requeue a running primary input for a change of its finalizers alone, unless the
   * change removes this controller's own finalizer: for a controller whose reconcile of a
   * running input reads nothing of its finalizers but whether its own is there (a queue
   * transform). Another controller putting its finalizer on the same input then costs no
   * reconcile, however the two writes interleave; a state behind I/O (etcd) delivers them long
   * after the reconcile that added ours, where the in-memory state's burst folds them into it.
   * A change of anything else (spec, labels, annotations, owner, phase) is queued as always.
   */
  readonly skipFinalizerOnlyRequeue?: boolean;
}

/** What `mapEvent` is told about an event besides the event itself. */
export interface MapEventContext {
  /**
   * The event is one of the synthetic `created` events for the resources that existed when the
   * controller started (controller-runtime's `CreateEvent.IsInInitialList`).
   */
  readonly isInInitialList: boolean;
}

/** The facade handed to a queue controller. */
export type QRuntime = ControllerContext;

/**
 * A per-item queue controller: each primary resource is a key reconciled on its own, with
 * per-key backoff and `concurrency` workers. It routes its input events either by input kind
 * (primary items are queued, mapped ones go through `mapInput`) or, when it has `mapEvent`, all
 * through `mapEvent`: so it has at least one of the two.
 */
export type QController = QControllerBase & (QInputMapper | QEventMapper);

/** What every queue controller has, however it routes its input events. */
export interface QControllerBase {
  readonly name: string;
  readonly settings: QSettings;
  /**
   * `false`: runs in every process of a long-lived runtime (`cosi run`), not only in the elected
   * leader, as controller-runtime's `NeedLeaderElection`. Leader-only by default.
   */
  readonly needLeaderElection?: boolean;

  /** Reconciles one item. Throw to retry with backoff; throw a `RequeueError` to come back later. */
  reconcile(rt: QRuntime, pointer: Pointer, log: Logger): Promise<void>;
  /**
   * Optional: called once at start with a function that queues an item directly, for event
   * sources outside the state (the builder's raw sources). Queuing ends when `signal` aborts.
   */
  attachQueue?(enqueue: (pointer: Pointer) => void, signal: AbortSignal): void;
}

/** Routing by input kind: primary items are queued, changes of mapped inputs go to `mapInput`. */
export interface QInputMapper {
  /** Maps a change of a mapped input to the primary items it affects. */
  mapInput(rt: QRuntime, metadata: ReducedMetadata, log: Logger): Promise<readonly Pointer[]>;
  mapEvent?(
    input: Input<QInputKind>,
    event: ResourceEvent,
    context?: MapEventContext,
  ): readonly Pointer[];
}

/** Routing of whole events: what the builder compiles to. */
export interface QEventMapper {
  /** Unused: `mapEvent` replaces the routing by input kind. */
  mapInput?(rt: QRuntime, metadata: ReducedMetadata, log: Logger): Promise<readonly Pointer[]>;
  /**
   * Sees every event of every input, whole (old and new resource), and returns the items to
   * reconcile. It replaces the primary / mapped routing, and at start every existing input
   * resource is passed in as a `created` event.
   */
  mapEvent(
    input: Input<QInputKind>,
    event: ResourceEvent,
    context?: MapEventContext,
  ): readonly Pointer[];
}

/** A controller of either shape, as `Runtime.register` takes it. */
export type AnyController = Controller | QController;

export const isQController = (c: AnyController): c is QController => 'reconcile' in c;

/** The inputs of either kind of controller. */
export const inputsOf = (c: AnyController): readonly Input[] =>
  isQController(c) ? c.settings.inputs : c.inputs;

export const outputsOf = (c: AnyController): readonly Output[] =>
  isQController(c) ? c.settings.outputs : c.outputs;

/** The metadata a `mapInput` receives, from a stored resource. */
export function toReducedMetadata(resource: Resource): ReducedMetadata {
  const md = resource.metadata;
  return {
    namespace: md.namespace,
    type: md.type,
    id: md.id,
    phase: md.phase,
    labels: md.labels,
    finalizersEmpty: md.finalizers.length === 0,
  };
}
