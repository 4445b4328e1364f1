import type { ResourceType } from '../engine/resource/define-resource.js';
import {
  createDefinition,
  type ResourceDefinition,
  type ResourceDefinitionInput,
} from '../engine/resource/definition.js';
import type { AnyController } from '../engine/runtime/controller.js';
import type { Runtime } from '../engine/runtime/runtime.js';

/** A definition in a config: a `defineResource` result, a definition input, or a full one. */
export type ConfigDefinition = ResourceType<unknown> | ResourceDefinitionInput | ResourceDefinition;

/** What `cosi.config.ts` exports (by default). */
export interface ProjectConfig {
  /** Types the project's controllers use, beside those defined in manifests. */
  readonly definitions?: readonly ConfigDefinition[];
  /** Controllers and queue controllers to register. */
  readonly controllers?: readonly AnyController[];
  /** Called after registration, for builder-made controllers: `controllerManagedBy(runtime)...`. */
  readonly setup?: (runtime: Runtime) => void | Promise<void>;
  /**
   * The project's manifests: files, directories or globs, relative to the config's directory.
   * Commands run inside the project read them when given no `-f` (or path arguments).
   */
  readonly manifests?: readonly string[];
  /** Patterns (`.gitignore` syntax) skipped while walking the manifests, beside `--ignore`'s. */
  readonly ignore?: readonly string[];
  /**
   * Files or directories whose definitions (CRDs, ResourceDefinitions) alone are read, relative
   * to the config's directory: `--definitions` when the command is given none.
   */
  readonly definitionFiles?: readonly string[];
  /**
   * Where the JSON Schemas of kinds nothing else defines are, as kubeconform's `-schema-location`
   * names them (`schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`), relative to
   * the config's directory: `--schema-location` when the command is given none.
   */
  readonly schemaLocations?: readonly string[];
  /** The Kubernetes release of the built-in kinds (`1.30`): `--kubernetes-version` when not given. */
  readonly kubernetesVersion?: string;
}

/**
 * Declares a project's config, with types.
 *
 * @example
 * // cosi.config.ts
 * import { defineConfig } from 'cosi';
 * export default defineConfig({ definitions: [VM], controllers: [vmNetController()] });
 */
export function defineConfig(config: ProjectConfig): ProjectConfig {
  return config;
}

/** Turns every kind of config definition into a validated definition. */
export function normalizeDefinition(definition: ConfigDefinition): ResourceDefinition {
  if ('definition' in definition) return definition.definition;
  return createDefinition(definition);
}
