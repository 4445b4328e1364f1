import { stringify } from 'yaml';
import {
  RESOURCE_DEFINITION_TYPE,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { displayPath } from '../app/display-path.js';
import { readProjectManifests } from '../app/read-project-manifests.js';
import { formatFinding, hasErrors, type Finding } from '../loaders/finding.js';
import type { PriorState } from '../loaders/cel/prior-state.js';
import type { KubernetesRelease } from '../loaders/kubernetes/kubernetes-release.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import { loadManifests } from '../loaders/load-manifests.js';
import type { ManifestFile, ManifestResource } from '../loaders/manifest-resource.js';

/**
 * Manifests given to a test project: a path (a file or a directory, read as `cosi apply -f`
 * reads it; a string without a line break), YAML text (a string with one: one or more
 * documents), a document as an object (`{ metadata, spec }` or Kubernetes-shaped), or a list of
 * these.
 */
export type ManifestInput = string | object | readonly (string | object)[];

/** Manifests that did not load: every finding, each at its file, line and column. */
export class ManifestError extends Error {
  constructor(readonly findings: readonly Finding[]) {
    const errors = findings.filter((f) => f.severity === 'error');
    super(
      `the manifests have ${errors.length} error${errors.length === 1 ? '' : 's'}:\n${errors.map((f) => `  ${formatFinding(f)}`).join('\n')}`,
    );
    this.name = 'ManifestError';
  }
}

/** What a load of test manifests gave: no errors (those throw), maybe warnings. */
export interface LoadedInput {
  readonly resources: readonly ManifestResource[];
  readonly registry: DefinitionRegistry;
  readonly findings: readonly Finding[];
}

export interface LoadInputOptions {
  readonly cwd: string;
  readonly config: LoadedConfig | undefined;
  /** Types known before the load: the project's, on a later apply. */
  readonly known?: DefinitionRegistry;
  readonly kubernetesVersion?: KubernetesRelease;
  /** How inline documents are named in findings (`<inline 1>`, ...). */
  readonly label?: string;
  /** Patterns (`.gitignore` syntax) the walk of the paths skips: a project config's `ignore`. */
  readonly ignore?: readonly string[];
  /** Files whose definitions alone are read: a project config's `definitionFiles`. */
  readonly definitionPaths?: readonly string[];
  /** Where JSON Schemas of kinds nothing else defines are: a project config's `schemaLocations`. */
  readonly schemaLocations?: readonly string[];
  /**
   * The manifests applied so far, for CEL transition rules: a manifest already there is checked as
   * an update of it (`oldSelf`, kro's `immutable=true`), a new one as a create.
   */
  readonly previous?: PriorState;
}

/** The strings of an input that are paths: those without a line break. */
export function manifestPaths(input: ManifestInput | undefined): string[] {
  return listOf(input).filter(
    (item): item is string => typeof item === 'string' && !item.includes('\n'),
  );
}

/**
 * Loads manifests given in any {@link ManifestInput} form: paths as the CLI reads them, then the
 * inline ones, which know the types of the paths' manifests.
 *
 * @throws ManifestError when any of them has an error finding.
 */
export async function loadManifestInput(
  input: ManifestInput | undefined,
  options: LoadInputOptions,
): Promise<LoadedInput> {
  const paths = manifestPaths(input);
  const inline = inlineFiles(input, options.label ?? 'inline');
  const version = options.kubernetesVersion;
  const read =
    paths.length === 0
      ? undefined
      : await readProjectManifests(
          {
            files: paths,
            cwd: options.cwd,
            ...(version ? { kubernetesVersion: version } : {}),
            ...(options.ignore ? { ignore: options.ignore } : {}),
            ...(options.definitionPaths ? { definitionPaths: options.definitionPaths } : {}),
            ...(options.schemaLocations ? { schemaLocations: options.schemaLocations } : {}),
            // A project's step applies files that may use the kinds its manifests defined.
            ...(options.known ? { knownDefinitions: knownDefinitions(options) } : {}),
          },
          options.config,
          options.previous,
        );
  if (read && hasErrors(read.findings)) throw new ManifestError(read.findings);
  if (inline.length === 0 && read) {
    return { resources: read.resources, registry: read.registry, findings: read.findings };
  }
  const loaded = loadManifestFiles(inline, {
    ...options,
    definitions: [...knownDefinitions(options), ...(read?.definitions ?? [])],
  });
  return {
    resources: [...(read?.resources ?? []), ...loaded.resources],
    registry: loaded.registry,
    findings: [...(read?.findings ?? []), ...loaded.findings],
  };
}

/**
 * Loads manifest files given as text (a scenario's inline documents, at their place in it).
 *
 * @throws ManifestError when any of them has an error finding.
 */
export function loadManifestFiles(
  files: readonly ManifestFile[],
  options: LoadInputOptions & { readonly definitions?: readonly ResourceDefinition[] },
): LoadedInput {
  const result = loadManifests(files, {
    definitions: options.definitions ?? knownDefinitions(options),
    ...(options.config ? { definitionsSource: displayPath(options.cwd, options.config.file) } : {}),
    ...(options.kubernetesVersion ? { kubernetesVersion: options.kubernetesVersion } : {}),
    ...(options.previous ? { previous: options.previous } : {}),
  });
  // An apply of nothing is not an error in a test.
  const findings = result.findings.filter((f) => f.code !== 'empty-input');
  if (hasErrors(findings)) throw new ManifestError(findings);
  return { resources: result.resources, registry: result.registry, findings };
}

/** The config's definitions, or the project's types (but cosi's own), on a later apply. */
function knownDefinitions(options: LoadInputOptions): ResourceDefinition[] {
  if (options.known) {
    return options.known.all().filter((d) => d.type !== RESOURCE_DEFINITION_TYPE);
  }
  return options.config?.definitions ?? [];
}

/** The inline parts of an input as files: each text its own, the objects together. */
function inlineFiles(input: ManifestInput | undefined, label: string): ManifestFile[] {
  const files: ManifestFile[] = [];
  const objects: object[] = [];
  for (const item of listOf(input)) {
    if (typeof item === 'string') {
      if (item.includes('\n')) files.push({ path: '', text: item });
    } else {
      objects.push(item);
    }
  }
  if (objects.length > 0) {
    files.push({
      path: '',
      text: objects.map((o) => stringify(o, { lineWidth: 0 })).join('---\n'),
    });
  }
  // `<apply 2>` when the apply gave one text, `<apply 2 #1>`... when it gave several.
  return files.map((f, i) => ({
    ...f,
    path: files.length === 1 ? `<${label}>` : `<${label} #${i + 1}>`,
  }));
}

function listOf(input: ManifestInput | undefined): readonly (string | object)[] {
  if (input === undefined) return [];
  return Array.isArray(input) ? (input as readonly (string | object)[]) : [input];
}
