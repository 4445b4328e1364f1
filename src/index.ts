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
  ConflictError,
  isConflict,
  isNotFound,
  isOwnerConflict,
  isPhaseConflict,
  isRetryableConflict,
  NotFoundError,
  StateError,
  type ConflictReason,
  type StateErrorCode,
} from './engine/state/errors.js';
export type {
  CreateOptions,
  ListOptions,
  OwnerOptions,
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
