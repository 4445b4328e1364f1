import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { Draft } from '../engine/resource/resource.js';
import { collectDefinitions } from './collect-definitions.js';
import { compareFindings, createFinding, type Finding } from './finding.js';
import { loadResources } from './load-resources.js';
import {
  parseManifest,
  type ParsedManifest,
  type ParseManifestOptions,
  type Position,
} from './parse-manifest.js';
import { sharedSchemaCompiler, type SchemaCompiler } from './schema-compiler.js';
import type { PriorState } from './cel/prior-state.js';

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
  return loadParsedManifests(
    files.map((file) => parseManifest(file.text, file.path, options)),
    options,
  );
}

/**
 * {@link loadManifests} on files already parsed with `parseManifest`: the resolution and
 * validation passes only. An incremental loader keeps the parse of unchanged files and calls this.
 * The parsed documents are only read, never changed, so they may be loaded again.
 */
export function loadParsedManifests(
  files: readonly ParsedManifest[],
  options: LoadManifestsOptions = {},
): LoadResult {
  const findings: Finding[] = [];
  const compiler = options.schemaCompiler ?? sharedSchemaCompiler();
  const given = {
    definitions: options.definitions ?? [],
    source: options.definitionsSource ?? '',
  };
  const collected = collectDefinitions(files, given, compiler, findings);
  const resources = loadResources(collected, given, compiler, findings, options);
  if (collected.pending.length === 0) findings.push(emptyInput(files.length));
  findings.sort(compareFindings);
  return {
    definitions: collected.definitions,
    registry: collected.registry,
    resources,
    findings: capFindings(findings),
  };
}

/** Findings reported per load; past this, the rest are counted in one last finding. */
export const MAX_FINDINGS_PER_LOAD = 1000;

/**
 * The first {@link MAX_FINDINGS_PER_LOAD} findings and a `too-many-findings` ("and N more"),
 * keeping every error's count in it: a run with a million problems prints a screenful.
 */
function capFindings(findings: Finding[]): Finding[] {
  if (findings.length <= MAX_FINDINGS_PER_LOAD) return findings;
  const kept = findings.slice(0, MAX_FINDINGS_PER_LOAD);
  const rest = findings.slice(MAX_FINDINGS_PER_LOAD);
  // A load that fails must show an error: swap the first one in for the last warning shown.
  const firstError = rest.findIndex((f) => f.severity === 'error');
  if (firstError !== -1 && !kept.some((f) => f.severity === 'error')) {
    rest.push(kept.pop() as Finding);
    kept.push(...rest.splice(firstError, 1));
  }
  const errors = rest.filter((f) => f.severity === 'error').length;
  kept.push(
    createFinding({
      code: 'too-many-findings',
      message: `and ${rest.length} more findings (${errors} of them errors), not shown`,
      file: '',
      line: 0,
      col: 0,
      pointer: '',
    }),
  );
  return kept;
}

/** Nothing to load: no files, or files without a single resource document. */
function emptyInput(fileCount: number): Finding {
  return createFinding({
    code: 'empty-input',
    message:
      fileCount === 0
        ? 'no manifest files found'
        : `no resources found in ${fileCount} file${fileCount === 1 ? '' : 's'}`,
    file: '',
    line: 0,
    col: 0,
    pointer: '',
  });
}
