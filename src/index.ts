/**
 * cosi: the COSI controller model in TypeScript.
 *
 * Everything `import ... from 'cosi'` gets is exported here, by name.
 */

// Resources
export {
  deepClone,
  deepEqual,
  deepFreeze,
  defineOwn,
  type DeepReadonly,
} from './engine/resource/plain-data.js';
export {
  formatPointer,
  kindKey,
  pointerKey,
  toPointer,
  type Kind,
  type Pointer,
} from './engine/resource/pointer.js';
export {
  createMetadata,
  metadataEqual,
  type MetadataInit,
  type MutableMetadata,
  type OwnerReference,
  type Phase,
  type ResourceMetadata,
} from './engine/resource/metadata.js';
export {
  formatResource,
  freezeResource,
  isDestroyReady,
  newResource,
  resourceEqual,
  toDraft,
  type AnyResource,
  type Draft,
  type Resource,
} from './engine/resource/resource.js';
export {
  createDefinition,
  DEFAULT_NAMESPACE,
  DefinitionError,
  RESOURCE_DEFINITION_TYPE,
  resourceDefinitionDefinition,
  type DefinitionRule,
  type JsonSchema,
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
  idMatches,
  idRegexp,
  labelEqual,
  labelExists,
  labelIn,
  labelLT,
  labelLTE,
  labelLTENumeric,
  labelLTNumeric,
  labelQuery,
  not,
  parseQuantity,
  queriesMatch,
  queryMatches,
  termMatches,
  type IdQuery,
  type LabelOp,
  type LabelQuery,
  type LabelTerm,
} from './engine/resource/label-query.js';

// State
export {
  AccessError,
  ConflictError,
  DestroyOutputError,
  hasCode,
  isAccessError,
  isConflict,
  isDestroyOutput,
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
export type {
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
export { createTombstone, isTombstone } from './engine/state/tombstone.js';
export {
  createInMemoryState,
  InMemoryState,
  type InMemoryStateOptions,
} from './engine/state/in-memory-state.js';

// Runtime
export {
  RealClock,
  SIMULATED_EPOCH,
  SimulatedClock,
  type Clock,
  type Timer,
} from './engine/runtime/clock.js';
export {
  DEFAULT_BACKOFF,
  ExponentialBackoff,
  type BackoffOptions,
} from './engine/runtime/backoff.js';
export {
  inputsOf,
  isQController,
  outputsOf,
  type AnyController,
  type Controller,
  type ControllerContext,
  type ControllerInputKind,
  type ControllerReader,
  type ControllerRuntime,
  type ControllerWriter,
  type Input,
  type InputKind,
  type Output,
  type OutputKind,
  type QController,
  type QInputKind,
  type QRuntime,
  type QSettings,
  type ReconcileEvent,
  type ReducedMetadata,
} from './engine/runtime/controller.js';
export {
  createLogger,
  silentLogger,
  type LogLevel,
  type LogRecord,
  type LogSink,
  type Logger,
} from './engine/runtime/logger.js';
export {
  createMetrics,
  type ControllerMetrics,
  type ControllerCondition,
  type ControllerStatus,
} from './engine/runtime/metrics.js';
export type { DependencyEdge, DependencyGraph } from './engine/runtime/dependency-graph.js';
export {
  DEFAULT_CONVERGE_OPTIONS,
  type ControllerReport,
  type ConvergeOptions,
  type ConvergenceReason,
  type ConvergenceReport,
  type ItemFailure,
  type OscillatingResource,
} from './engine/runtime/convergence.js';
export { createRuntime, Runtime, type RuntimeOptions } from './engine/runtime/runtime.js';
export { findById, getById, listAll, modifyTyped, ResourceList } from './engine/runtime/typed.js';

// Generic controllers
export type { GenericContext } from './controllers/context.js';
export { skip } from './controllers/errors.js';
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

// Loaders
export {
  compareFindings,
  createFinding,
  FINDING_CODES,
  FINDING_SEVERITY,
  formatFinding,
  formatLocation,
  hasErrors,
  type Finding,
  type FindingCode,
  type FindingInit,
  type Severity,
  type SourceLocation,
} from './loaders/finding.js';
export { jsonPointer, parseJsonPointer } from './loaders/json-pointer.js';
export {
  parseManifest,
  type ParsedDocument,
  type ParsedManifest,
  type ParseManifestOptions,
  type Position,
} from './loaders/parse-manifest.js';
export {
  createSchemaCompiler,
  SchemaCompiler,
  type CompiledSchema,
  type SchemaProblem,
  type SpecValidator,
} from './loaders/schema-compiler.js';
export {
  loadManifests,
  type LoadManifestsOptions,
  type LoadResult,
  type ManifestFile,
  type ManifestResource,
  type ManifestSource,
} from './loaders/load-manifests.js';
export {
  nodeFileSystem,
  type ManifestDirEntry,
  type ManifestFileSystem,
} from './loaders/manifest-file-system.js';
export {
  readManifests,
  type ReadManifestsOptions,
  type ReadResult,
} from './loaders/manifest-reader.js';

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
export {
  toPartialObjectMetadata,
  type CreateEvent,
  type DeleteEvent,
  type GenericEvent,
  type ObjectLike,
  type PartialObjectMetadata,
  type UpdateEvent,
} from './engine/builder/events.js';
export {
  enqueueRequestForObject,
  enqueueRequestForOwner,
  enqueueRequestsFromMapFunc,
  handlerFuncs,
  type EventHandler,
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
export {
  getControllerOf,
  hasControllerReference,
  hasOwnerReference,
  OwnerReferenceError,
  removeControllerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
  type OwnerLike,
  type OwnerReferenceErrorCode,
} from './engine/builder/owner-references.js';
// `not` is the label-query term's name already, so the predicate one is `notPredicate` here.
export {
  and,
  annotationsChanged,
  labelSelectorPredicate,
  labelsChanged,
  newPredicateFuncs,
  not as notPredicate,
  or,
  predicateFuncs,
  specChanged,
  versionChanged,
  type Predicate,
  type PredicateFuncs,
} from './engine/builder/predicates.js';
export {
  type ReconcileContext,
  type ReconcileFunc,
  type Reconciler,
  type ReconcileRequest,
  type Request,
  type Result,
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
  normalizeDefinition,
  type ConfigDefinition,
  type ProjectConfig,
} from './loaders/project-config.js';
export {
  CONFIG_FILE_NAMES,
  ConfigError,
  findConfig,
  loadConfig,
  type LoadConfigOptions,
  type LoadedConfig,
} from './loaders/load-config.js';

// State helpers
export {
  ResourceApplier,
  type ApplyResult,
  type KeyedResource,
} from './engine/state/resource-applier.js';
