/**
 * `--definitions DIR`: definitions kept apart from the manifests (a chart's `crds/`, a vendored
 * bundle of CRDs). Only the definition documents of those files are read (CustomResourceDefinitions
 * and `ResourceDefinitions.meta.cosi.dev`); their other documents (examples, say) are skipped, so
 * a bundle can be used as it comes.
 */

import { lazyCelRules, loadCelRuleEngine } from './cel/cel-rules.js';
import { prepareGraphCel } from './kro/graph-cel-loader.js';
import { readResourceGraphDefinitions } from './kro/read-resource-graphs.js';
import { schemaHasRules } from './schema-node.js';
import { collectDefinitions } from './collect-definitions.js';
import { compareFindings, type Finding } from './finding.js';
import { isCrdDocument } from './kubernetes/crd-definitions.js';
import { scanCrdOutlines } from './kubernetes/crd-outline-scan.js';
import { lazyCrdDefinitions } from './kubernetes/lazy-crd-definitions.js';
import { isXrdDocument } from './kubernetes/crossplane-xrd.js';
import { isConstraintTemplateDocument } from './kubernetes/gatekeeper-constraint-template.js';
import { groupKindOf, isKubernetesShaped } from './kubernetes/kubernetes-shape.js';
import { isKubernetesList, listItemValues } from './kubernetes/kubernetes-list.js';
import { isPlainObject } from './manifest-document.js';
import { nodeFileSystem } from './manifest-file-system.js';
import { parseManifest, type ParsedManifest } from './parse/parse-manifest.js';
import { readManifestFiles } from './read-manifest-files.js';
import { sharedSchemaCompiler } from './schema-compiler.js';
import { walkManifestTree, type WalkManifestTreeOptions } from './walk-manifest-tree.js';
import {
  resourceDefinitionDefinition,
  type ResourceDefinition,
} from '../engine/resource/definition.js';

/** What {@link readDefinitionPaths} returns. */
export interface DefinitionPathsResult {
  /** The valid definitions, in path order. */
  readonly definitions: ResourceDefinition[];
  /** Findings about the files and their definition documents, sorted. */
  readonly findings: Finding[];
  /** Definition id -> the file (as shown) that defines it: what a duplicate's finding names. */
  readonly files: ReadonlyMap<string, string>;
}

const DEFINITION_TYPE_NAMES = new Set(
  [resourceDefinitionDefinition.id, ...resourceDefinitionDefinition.allAliases].map((n) =>
    n.toLowerCase(),
  ),
);

/**
 * Reads the definitions below the given paths (walked as `-f` walks them). Never throws for bad
 * input: every problem is a finding at its file:line:col.
 */
export async function readDefinitionPaths(
  paths: readonly string[],
  options: WalkManifestTreeOptions = {},
): Promise<DefinitionPathsResult> {
  if (paths.length === 0) return { definitions: [], findings: [], files: new Map() };
  const fs = options.fs ?? nodeFileSystem;
  const tree = await walkManifestTree(paths, { ...options, fs });
  const findings: Finding[] = [...tree.findings];
  const parsed: ParsedManifest[] = [];
  const reads = await readManifestFiles(fs, tree.files);
  // CEL is loaded only for the rules compiled here: a CRD's compile when a document first uses
  // its kind (`deferred-check.ts`), a cosi definition's as it is read (below). An RGD's outputs
  // are checked against their kinds' rules, so a file that may hold one loads both.
  if (await prepareGraphCel(reads.flatMap((read) => ('text' in read ? [read.text] : [])))) {
    await loadCelRuleEngine();
  }
  const lazyOptions = { compiler: sharedSchemaCompiler(), celRules: lazyCelRules(undefined) };
  /** Files of CRDs alone, by their index: their definitions, parsed when used. */
  const lazy = new Map<number, ResourceDefinition[]>();
  const texts = new Map<number, string>();
  tree.files.forEach((file, i) => {
    const read = reads[i];
    if (read === undefined) return;
    if ('finding' in read) {
      findings.push(read.finding);
      return;
    }
    texts.set(i, read.text);
    const outlines = scanCrdOutlines(read.text);
    const deferred =
      outlines === undefined || outlines.length === 0
        ? undefined
        : lazyCrdDefinitions(file.display, read.text, outlines, lazyOptions);
    if (deferred !== undefined) lazy.set(i, deferred);
  });
  // A type defined twice is reported as it is among parsed files: both files are parsed.
  const files = new Map<string, number[]>();
  for (const [i, definitions] of lazy) {
    for (const d of definitions) files.set(d.id, [...(files.get(d.id) ?? []), i]);
  }
  for (const at of files.values()) if (at.length > 1) for (const i of at) lazy.delete(i);
  const parseNow = (i: number): ParsedManifest => {
    const manifest = parseManifest(texts.get(i) ?? '', tree.files[i]?.display ?? '');
    return { ...manifest, documents: manifest.documents.filter((d) => isDefinition(d.value)) };
  };
  for (const i of texts.keys()) if (!lazy.has(i)) parsed.push(parseNow(i));
  // A cosi definition's rules compile as it is read: CEL is loaded first if one has any.
  if (parsed.some((manifest) => manifest.documents.some((d) => hasCompiledNowRules(d.value)))) {
    await loadCelRuleEngine();
  }
  const collect = (from: readonly ParsedManifest[], into: Finding[]): ResourceDefinition[] =>
    collectDefinitions(
      from,
      {
        definitions: [],
        source: '',
        deferSchemaChecks: true,
        identicalAreOne: true,
        celRules: lazyOptions.celRules,
        resourceGraphs: readResourceGraphDefinitions,
      },
      lazyOptions.compiler,
      into,
    ).definitions;
  const collectedFindings: Finding[] = [];
  let collected = collect(parsed, collectedFindings);
  const taken = new Set(collected.map((d) => d.id));
  const clashing = [...lazy].filter(([, definitions]) => definitions.some((d) => taken.has(d.id)));
  if (clashing.length > 0) {
    for (const [i] of clashing) lazy.delete(i);
    parsed.splice(0, parsed.length, ...[...texts.keys()].filter((i) => !lazy.has(i)).map(parseNow));
    collectedFindings.length = 0;
    collected = collect(parsed, collectedFindings);
  }
  findings.push(...collectedFindings);
  // In path order, as the files are.
  const sources = definitionSources(parsed);
  const byFile = new Map<string, ResourceDefinition[]>();
  for (const d of collected) {
    const source = sources.get(sourceKey(d)) ?? '';
    byFile.set(source, [...(byFile.get(source) ?? []), d]);
  }
  const definitions: ResourceDefinition[] = [];
  const fileOf = new Map<string, string>();
  tree.files.forEach((file, i) => {
    for (const d of lazy.get(i) ?? byFile.get(file.display) ?? []) {
      definitions.push(d);
      fileOf.set(d.id, file.display);
    }
    byFile.delete(file.display);
  });
  // Whatever could not be placed by its file still counts, last.
  for (const rest of byFile.values()) definitions.push(...rest);
  return { definitions, findings: findings.sort(compareFindings), files: fileOf };
}

/** How {@link definitionSources} knows a definition: by group and kind, or by id. */
function sourceKey(definition: ResourceDefinition): string {
  const identity = definition.kubernetes;
  return identity === undefined ? definition.id : groupKindOf(identity);
}

/** The file of each definition document of `parsed`, by {@link sourceKey}. */
function definitionSources(parsed: readonly ParsedManifest[]): Map<string, string> {
  const sources = new Map<string, string>();
  for (const manifest of parsed) {
    for (const { value } of manifest.documents) {
      if (!isPlainObject(value) || !isPlainObject(value.spec)) continue;
      const spec = value.spec;
      const key = isKubernetesShaped(value)
        ? `${String(spec.group)}/${String(isPlainObject(spec.names) ? spec.names.kind : '')}`
        : String(spec.type).toLowerCase();
      if (!sources.has(key)) sources.set(key, manifest.file);
    }
  }
  return sources;
}

/** Whether a definition document is one of cosi's whose schema has rules (compiled as it is read). */
function hasCompiledNowRules(value: unknown): boolean {
  if (isKubernetesShaped(value) || !isPlainObject(value) || !isPlainObject(value.spec))
    return false;
  const schema = value.spec.schema;
  return isPlainObject(schema) && schemaHasRules(schema);
}

/**
 * A CRD, or a document of cosi's definition type (by any of its names), or a `List` holding one
 * (`kubectl get crd -o yaml` writes one).
 */
function isDefinition(value: unknown): boolean {
  if (isKubernetesShaped(value) && isKubernetesList(value)) {
    return listItemValues(value).some(isDefinition);
  }
  if (isKubernetesShaped(value)) {
    return isCrdDocument(value) || isXrdDocument(value) || isConstraintTemplateDocument(value);
  }
  if (!isPlainObject(value) || !isPlainObject(value.metadata)) return false;
  const type = value.metadata.type;
  return typeof type === 'string' && DEFINITION_TYPE_NAMES.has(type.toLowerCase());
}
