/**
 * cosi: the COSI controller model in TypeScript.
 *
 * Everything `import ... from 'cosi'` gets is exported here, by name: what a library user needs
 * to define resources, keep them in a state, write and run controllers (by hand, from the generic
 * ones, or with the builder) and declare a project's config. The manifest loaders are a subpath
 * of their own (`cosi/loaders`); everything else is internal. `test/public-api.test.ts` lists
 * these names, so a change of the surface is deliberate.
 */

// Resources
export type { DeepReadonly } from './engine/resource/plain-data.js';
export {
  ALL_NAMESPACES,
  formatPointer,
  pointerKey,
  toPointer,
  type Kind,
  type Pointer,
  type TypedKind,
  type TypedPointer,
} from './engine/resource/pointer.js';
export type {
  MetadataInit,
  MutableMetadata,
  OwnerReference,
  Phase,
  ResourceMetadata,
} from './engine/resource/metadata.js';
export {
  formatResource,
  isDestroyReady,
  newResource,
  resourceEqual,
  toDraft,
  type AnyResource,
  type Creatable,
  type Draft,
  type Resource,
  type SpeclessDraft,
} from './engine/resource/resource.js';
export {
  createDefinition,
  DEFAULT_NAMESPACE,
  DefinitionError,
  RESOURCE_DEFINITION_TYPE,
  type JsonSchema,
  type KubernetesKind,
  type PrintColumn,
  type ResourceDefinition,
  type ResourceDefinitionInput,
  type Sensitivity,
} from './engine/resource/definition.js';
export { DefinitionRegistry, TypeResolutionError } from './engine/resource/definition-registry.js';
export {
  defineResource,
  type DefineResourceOptions,
  type NewResourceOptions,
  type ResourceType,
} from './engine/resource/define-resource.js';
export {
  idRegexp,
  labelEqual,
  labelExists,
  labelIn,
  labelLT,
  labelLTE,
  labelLTENumeric,
  labelLTNumeric,
  labelQuery,
  notMatches,
  type IdQuery,
  type LabelOp,
  type LabelQuery,
  type LabelTerm,
} from './engine/resource/label-query.js';

// Errors
export {
  AccessError,
  BufferOverrunError,
  ConflictError,
  DestroyOutputError,
  hasCode,
  InvalidBookmarkError,
  isAccessError,
  isBufferOverrun,
  isConflict,
  isDestroyOutput,
  isInvalidBookmark,
  isNotFound,
  isOwnerConflict,
  isPhaseConflict,
  isRegistrationError,
  isRequeue,
  isRetryableConflict,
  isSkip,
  isTerminal,
  NotFoundError,
  ReconcileCycleError,
  RegistrationError,
  RequeueError,
  requeueAfter,
  SkipError,
  terminalError,
  TerminalError,
  type ConflictReason,
  type ErrorCode,
} from './engine/errors.js';

// State
export type {
  AggregatedWatchListener,
  Bookmark,
  CreateOptions,
  ListOptions,
  OwnerOptions,
  ResourceEvent,
  State,
  StateEvent,
  StateEventType,
  UpdateOptions,
  Updater,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from './engine/state/state.js';
export { isResourceEvent } from './engine/state/state.js';
export { watchFor, type WatchForConditions } from './engine/state/watch-for.js';
export { isTombstone } from './engine/state/tombstone.js';
export { teardownSignal } from './engine/state/teardown-signal.js';
export {
  createInMemoryState,
  DEFAULT_HISTORY_CAPACITY,
  type InMemoryState,
  type InMemoryStateOptions,
} from './engine/state/in-memory-state.js';
export {
  ResourceApplier,
  type ApplyResult,
  type KeyedResource,
  type ResourceApplierOptions,
} from './engine/state/resource-applier.js';
// State on etcd (src/state-etcd/: I/O, so outside the engine; `etcd3` is loaded on first use)
export { createEtcdState, type EtcdState, type EtcdStateOptions } from './state-etcd/etcd-state.js';
export { HistoryCompactedError, isHistoryCompacted } from './engine/errors.js';

// Runtime
export { RealClock, SimulatedClock, type Clock, type Timer } from './engine/runtime/clock.js';
export type { BackoffOptions } from './engine/runtime/backoff.js';
export type {
  AnyController,
  Controller,
  ControllerContext,
  ControllerCreateOptions,
  ControllerInputKind,
  ControllerModifyOptions,
  ControllerReader,
  ControllerRuntime,
  ControllerWriter,
  Input,
  InputKind,
  MapEventContext,
  Output,
  OutputKind,
  QController,
  QInputKind,
  QRuntime,
  QSettings,
  ReconcileEvent,
  ReducedMetadata,
} from './engine/runtime/controller.js';
export type { InputChanges } from './engine/runtime/input-changes.js';
export type { LogLevel, LogRecord, LogSink, Logger } from './engine/runtime/logger.js';
export type {
  ControllerCondition,
  ControllerMetrics,
  ControllerStatus,
} from './engine/runtime/metrics.js';
export type { QueueMetricsSink, QueueWorkload } from './engine/runtime/queue-metrics.js';
export type { DependencyEdge, DependencyGraph } from './engine/runtime/dependency-graph.js';
export type {
  ControllerReport,
  ConvergeOptions,
  ConvergenceReason,
  ConvergenceReport,
  ItemFailure,
  OscillatingResource,
} from './engine/runtime/convergence.js';
export type { CodeLocation, ErrorRecord } from './engine/runtime/error-record.js';
export { createRuntime, Runtime, type RunMark } from './engine/runtime/runtime.js';
export type { SingleReconcileOutcome } from './engine/runtime/single-reconcile.js';
export type { RuntimeOptions } from './engine/runtime/runtime-options.js';
export {
  RunRecord,
  formatVersionRef,
  type ReconcileJob,
  type ReconcileOutcome,
  type RecordedReconcile,
  type RecordedWrite,
  type RunRecorder,
  type RunRecordOptions,
  type VersionRef,
  type WriteOp,
} from './engine/record/run-record.js';
export type { ChangeRateLimit } from './engine/runtime/rate-limiter.js';
export { findById, getById, listAll, modifyTyped, ResourceList } from './engine/runtime/typed.js';

// Generic controllers
export type { GenericContext } from './controllers/context.js';
export { skip } from './controllers/errors.js';
export { createEventChannel, type EventChannel } from './controllers/event-channel.js';
export {
  createTransformController,
  type TransformOptions,
  type TransformSettings,
} from './controllers/transform.js';
export {
  createQTransformController,
  destroyOutput,
  mapLabelValue,
  mapSameId,
  type ExtraMappedInput,
  type QTransformOptions,
  type QTransformSettings,
} from './controllers/qtransform.js';
export {
  combine,
  createCleanupController,
  hasNoOutputs,
  removeOutputs,
  type CleanupHandler,
  type CleanupSettings,
  type DependentSelector,
  type RemoveOutputsOptions,
} from './controllers/cleanup.js';
export { createDestroyController, type DestroyOptions } from './controllers/destroy.js';
export {
  createGarbageCollector,
  type GarbageCollectorOptions,
} from './controllers/garbage-collector.js';

// Builder
export {
  Builder,
  controllerManagedBy,
  type BuilderTarget,
  type ControllerOptions,
  type ForOptions,
  type OwnsOptions,
  type Projected,
  type WatchesOptions,
} from './engine/builder/builder.js';
export type { CompiledController, TerminalFailure } from './engine/builder/compiled-controller.js';
export { BuilderError, isBuilderError, type BuilderErrorCode } from './engine/builder/errors.js';
export type {
  CreateEvent,
  DeleteEvent,
  GenericEvent,
  ObjectLike,
  PartialObjectMetadata,
  UpdateEvent,
} from './engine/builder/events.js';
export {
  enqueueRequestForObject,
  enqueueRequestForOwner,
  enqueueRequestsFromMapFunc,
  handlerFuncs,
  type EventHandler,
  type MapFunc,
  type MapFuncContext,
  type ReadOnlyClient,
  type OwnerHandlerOptions,
  type RequestQueue,
} from './engine/builder/handlers.js';
export {
  createManager,
  Manager,
  type ManagerOptions,
  type Runnable,
  type RunnableGroup,
} from './engine/builder/manager.js';
// Leader election (on an etcd lease, for createManager({ elect }); `etcd3` loads on first use)
export {
  createEtcdLeaderElection,
  type EtcdLeaderElection,
  type EtcdLeaderElectionOptions,
} from './state-etcd/leader-election.js';
export {
  getControllerOf,
  hasControllerReference,
  hasOwnerReference,
  OwnerReferenceError,
  removeControllerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
  type ControllerReferenceOptions,
  type OwnerLike,
  type OwnerReferenceErrorCode,
  type OwnerScopeOptions,
} from './engine/builder/owner-references.js';
export type { OwnerScheme } from './engine/resource/owner-scope.js';
export {
  and,
  annotationsChanged,
  generationChanged,
  labelSelectorPredicate,
  labelsChanged,
  newPredicateFuncs,
  not,
  or,
  predicateFuncs,
  specChanged,
  versionChanged,
  type Predicate,
  type PredicateFuncs,
} from './engine/builder/predicates.js';
export type {
  ReconcileContext,
  ReconcileFunc,
  Reconciler,
  ReconcileRequest,
  Request,
  Result,
} from './engine/builder/reconciler.js';
export {
  channelSource,
  type ChannelSource,
  type ChannelSourceOptions,
  type Source,
} from './engine/builder/source.js';

// Project config
export {
  defineConfig,
  type ConfigDefinition,
  type ProjectConfig,
} from './loaders/project-config.js';
