/** What a load of manifests is told ({@link LoadManifestsOptions}) and what it gives ({@link LoadResult}). */
import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { Finding } from './finding.js';
import type { ManifestResource } from './manifest-resource.js';
import type { ParseManifestOptions } from './parsed-manifest.js';
import type { ResourceDocument } from './resource-document.js';
import type { SchemaCompiler } from './schema-compiler.js';
import type { KubernetesRelease } from './kubernetes/kubernetes-release.js';
import type { SchemaKindSource } from './kubernetes/kubernetes-kinds.js';
import type { PriorRecorder, PriorState } from './cel/prior-state.js';

/** Options of `loadManifests`. */
export interface LoadManifestsOptions extends ParseManifestOptions {
  /** Definitions known beforehand (from the project's config). */
  readonly definitions?: readonly ResourceDefinition[];
  /** Where `definitions` come from, as the file of findings about them (`cosi.config.ts`). */
  readonly definitionsSource?: string;
  /**
   * Definition id -> the file a given definition was read from (`--definitions`), named instead
   * of {@link definitionsSource} where a manifest defines it again.
   */
  readonly definitionFiles?: ReadonlyMap<string, string>;
  /**
   * The Kubernetes release whose built-in kinds (ConfigMap, Deployment, ...) Kubernetes-shaped
   * documents may use: default the newest stable cosi has; `null`: none.
   */
  readonly kubernetesVersion?: KubernetesRelease | null;
  /**
   * Kinds defined by JSON Schemas on disk (`--schema-location`), for Kubernetes-shaped documents
   * that no CRD, given definition or built-in kind defines.
   */
  readonly schemaKinds?: SchemaKindSource;
  /** Kinds (or cosi types) whose documents are neither checked nor loaded (`--skip-kinds`). */
  readonly skipKinds?: readonly string[];
  /** Kinds whose documents are errors (`--reject-kinds`). */
  readonly rejectKinds?: readonly string[];
  /** Skip a Kubernetes-shaped document of a kind nothing defines (`--ignore-unknown-kinds`). */
  readonly ignoreUnknownKinds?: boolean;
  /** The schema compiler; a process-wide shared one when omitted. */
  readonly schemaCompiler?: SchemaCompiler;
  /**
   * The previous revision's specs, for CEL transition rules (`oldSelf`): a resource found in it
   * is checked as an update, any other as a create. Omitted: every resource is a create.
   */
  readonly previous?: PriorState;
  /**
   * Skip the CEL rules: for loading a previous revision, which was accepted once and is not
   * checked again (a resource it holds is an update's old value even if today's rules refuse it).
   */
  readonly skipRules?: boolean;
  /**
   * Loading a previous revision: every document whose type resolves is told to this recorder
   * with its spec, even one today's schema refuses (the API server compares with the stored
   * object as it is), and every one whose type does not, with its place. Implies `skipRules`.
   */
  readonly recordPrior?: PriorRecorder;
  /**
   * `false`: the resources keep their document's position only, not the text of their file, and
   * `ManifestResource.locate` answers the document's start for any pointer. For a run
   * that never places a pointer after the load (`cosi apply`): the text of every file is then
   * released with the load instead of held for as long as the resources. Default `true`.
   */
  readonly positions?: boolean;
}

/** What `loadManifests` returns. Nothing with an error finding is in it. */
export interface LoadResult {
  /** Definitions declared in the manifests, in source order (not `options.definitions`). */
  readonly definitions: ResourceDefinition[];
  /**
   * Every type the load knew: cosi's own definition type (`ResourceDefinitions.meta.cosi.dev`),
   * `options.definitions` and the manifests' `definitions`, in that order. Built once by the
   * load, to resolve the manifests' types: callers use it rather than build another.
   */
  readonly registry: DefinitionRegistry;
  /** Resources in source order. */
  readonly resources: ManifestResource[];
  /** Every finding, sorted by file, line and column. */
  readonly findings: Finding[];
  /**
   * Every resource document read (not the definitions), loaded or not, in load order: what
   * `cosi check` reports one by one, as kubeconform reports each resource.
   */
  readonly documents: readonly ResourceDocument[];
}
