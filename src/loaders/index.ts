/**
 * `cosi/loaders`: the manifest loaders, for tools that read a manifest tree the way `cosi` does
 * (an editor integration, a custom CI gate) without running the CLI.
 */
export {
  FINDING_CODES,
  FINDING_SEVERITY,
  formatFinding,
  hasErrors,
  type Finding,
  type FindingCode,
  type Severity,
  type SourceLocation,
} from './finding.js';
export {
  loadManifests,
  type LoadManifestsOptions,
  type LoadResult,
  type ManifestFile,
  type ManifestResource,
  type ManifestSource,
} from './load-manifests.js';
export {
  ManifestReader,
  readManifests,
  type ReadManifestsOptions,
  type ReadResult,
} from './manifest-reader.js';
export type { ManifestDirEntry, ManifestFileSystem } from './manifest-file-system.js';
export {
  walkManifestTree,
  type ManifestTree,
  type WalkManifestTreeOptions,
} from './walk-manifest-tree.js';
export type { UnrenderedKind, UnrenderedSource } from './unrendered-source.js';
export {
  JsonSchemaKinds,
  type JsonSchemaKindsOptions,
  type ReadSchemaFile,
  type SchemaCheckContext,
  type SchemaFileRead,
} from './kubernetes/json-schema-kinds.js';
export {
  parseSchemaLocations,
  SchemaLocationError,
  type SchemaLocation,
  type SchemaTarget,
} from './kubernetes/schema-location.js';
export type { PriorState } from './cel/prior-state.js';
export {
  ConfigError,
  loadConfig,
  type LoadConfigOptions,
  type LoadedConfig,
} from './load-config.js';
