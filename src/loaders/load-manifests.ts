import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { Draft } from '../engine/resource/resource.js';
import type { Finding } from './finding.js';
import { loadParsedManifests } from './load-parsed-manifests.js';
import { parseManifest, type ParseManifestOptions, type Position } from './parse-manifest.js';
import type { SchemaCompiler } from './schema-compiler.js';
import type { KubernetesRelease } from './kubernetes/kubernetes-release.js';
import type { ResourceDocument } from './resource-document.js';
import type { PriorRecorder, PriorState } from './cel/prior-state.js';

export type { ResourceDocument } from './resource-document.js';
import { installCelRules } from './cel/cel-rules.js';
import { celRuleEngine } from './cel/cel-rule-engine.js';

export { loadParsedManifests, MAX_FINDINGS_PER_LOAD } from './load-parsed-manifests.js';

/** A manifest file's name and contents. */
export interface ManifestFile {
  /** The path as it should appear in findings. */
  readonly path: string;
  readonly text: string;
}

/** Where a loaded resource was written. */
export interface ManifestSource {
  readonly file: string;
  /** 1-based position of the document's root node. */
  readonly line: number;
  readonly col: number;
  /** 0-based index of the document in its file (empty documents count). */
  readonly document: number;
}

/**
 * A resource read from a manifest: a new draft with no owner, and its definition. The draft's
 * empty finalizers, labels, annotations and owner references are shared frozen empties (a load
 * may hold a hundred thousand): change one by assigning a new collection.
 */
export interface ManifestResource {
  /** `pointerKey` of the resource: unique among the loaded resources. */
  readonly key: string;
  readonly resource: Draft;
  readonly definition: ResourceDefinition;
  readonly source: ManifestSource;
  /**
   * Where a JSON pointer inside the resource's document is (`/spec/disks/0`), or its nearest
   * existing parent; with `part: 'key'`, the key of the last segment. For findings about a
   * loaded resource, such as `cosi check --strict`'s unknown fields. A method, not an own
   * property: copies and JSON of a resource hold plain data only.
   */
  readonly locate?: (pointer: string, part?: 'key' | 'value') => Position;
}

/** Options of {@link loadManifests}. */
export interface LoadManifestsOptions extends ParseManifestOptions {
  /** Definitions known beforehand (from the project's config). */
  readonly definitions?: readonly ResourceDefinition[];
  /** Where `definitions` come from, as the file of findings about them (`cosi.config.ts`). */
  readonly definitionsSource?: string;
  /**
   * The Kubernetes release whose built-in kinds (ConfigMap, Deployment, ...) Kubernetes-shaped
   * documents may use: default the newest stable cosi has; `null`: none.
   */
  readonly kubernetesVersion?: KubernetesRelease | null;
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
   * {@link ManifestResource.locate} answers the document's start for any pointer. For a run
   * that never places a pointer after the load (`cosi apply`): the text of every file is then
   * released with the load instead of held for as long as the resources. Default `true`.
   */
  readonly positions?: boolean;
}

/** What {@link loadManifests} returns. Nothing with an error finding is in it. */
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

/**
 * Loads resources from manifest files. Pure: the files are given as text, in the order to load
 * them. Never throws for bad input: every problem is a finding, and all of them are collected.
 *
 * Two passes: first the `ResourceDefinitions.meta.cosi.dev` documents of all files (by any alias,
 * such as `rd`), so that a type may be used before the file that defines it
 * (`collectDefinitions`); then every other document, whose type is resolved by name or alias and
 * whose spec is checked against the type's JSON Schema (`loadResources`).
 *
 * @example
 * const { resources, findings } = loadManifests([{ path: 'vms.yaml', text }], { definitions });
 * if (hasErrors(findings)) for (const f of findings) console.error(formatFinding(f));
 */
export function loadManifests(
  files: readonly ManifestFile[],
  options: LoadManifestsOptions = {},
): LoadResult {
  // Synchronous from start to end: CEL is linked in here, not loaded on demand as the readers
  // load it (see cel-rules.ts).
  installCelRules(celRuleEngine);
  return loadParsedManifests(
    files.map((file) => parseManifest(file.text, file.path, options)),
    options,
  );
}
