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
import { isKubernetesShaped } from './kubernetes/kubernetes-shape.js';
import { isPlainObject } from './manifest-document.js';
import { nodeFileSystem } from './manifest-file-system.js';
import { parseManifest, type ParsedManifest } from './parse-manifest.js';
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
  if (paths.length === 0) return { definitions: [], findings: [] };
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
  tree.files.forEach((file, i) => {
    const read = reads[i];
    if (read === undefined) return;
    if ('finding' in read) {
      findings.push(read.finding);
      return;
    }
    const manifest = parseManifest(read.text, file.display);
    parsed.push({
      ...manifest,
      documents: manifest.documents.filter((d) => isDefinition(d.value)),
    });
  });
  // A cosi definition's rules compile as it is read: CEL is loaded first if one has any.
  if (parsed.some((manifest) => manifest.documents.some((d) => hasCompiledNowRules(d.value)))) {
    await loadCelRuleEngine();
  }
  const collected = collectDefinitions(
    parsed,
    {
      definitions: [],
      source: '',
      deferSchemaChecks: true,
      celRules: lazyCelRules(undefined),
      resourceGraphs: readResourceGraphDefinitions,
    },
    sharedSchemaCompiler(),
    findings,
  );
  return { definitions: collected.definitions, findings: findings.sort(compareFindings) };
}

/** Whether a definition document is one of cosi's whose schema has rules (compiled as it is read). */
function hasCompiledNowRules(value: unknown): boolean {
  if (isKubernetesShaped(value) || !isPlainObject(value) || !isPlainObject(value.spec))
    return false;
  const schema = value.spec.schema;
  return isPlainObject(schema) && schemaHasRules(schema);
}

/** A CRD, or a document of cosi's definition type (by any of its names). */
function isDefinition(value: unknown): boolean {
  if (isKubernetesShaped(value)) return isCrdDocument(value);
  if (!isPlainObject(value) || !isPlainObject(value.metadata)) return false;
  const type = value.metadata.type;
  return typeof type === 'string' && DEFINITION_TYPE_NAMES.has(type.toLowerCase());
}
