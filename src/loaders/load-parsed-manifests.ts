import type { Finding } from './finding.js';
import { compareFindings, createFinding } from './finding.js';
import { collectDefinitions, givenDefinitions } from './collect-definitions.js';
import { readResourceGraphDefinitions } from './kro/read-resource-graphs.js';
import { compileTransforms } from './transforms/transform-document.js';
import { byPosition, type ResourceDocument } from './resource-document.js';
import type { LoadManifestsOptions, LoadResult } from './load-options.js';
import { loadResources } from './load-resources.js';
import { specCheckerFor } from './spec-checker.js';
import type { ParsedManifest } from './parse/parse-manifest.js';
import { sharedSchemaCompiler } from './schema-compiler.js';
import type { CelRuleEngine } from './cel/cel-rules.js';

/**
 * `loadManifests` on files already parsed with `parseManifest`: the resolution and
 * validation passes only. An incremental loader keeps the parse of unchanged files and calls this.
 * The parsed documents are only read, never changed, so they may be loaded again.
 */
export function loadParsedManifests(
  files: readonly ParsedManifest[],
  options: LoadManifestsOptions = {},
  celRuleEngine?: () => CelRuleEngine,
): LoadResult {
  const findings: Finding[] = [];
  const compiler = options.schemaCompiler ?? sharedSchemaCompiler();
  const given = givenDefinitions(
    options,
    readResourceGraphDefinitions,
    celRuleEngine,
    compileTransforms,
  );
  const collected = collectDefinitions(files, given, compiler, findings);
  const documents: ResourceDocument[] = [...collected.documents];
  const schemas = specCheckerFor(given, collected.kinds, compiler, findings, options);
  const resources = loadResources(collected, schemas, findings, options, documents);
  // Definitions were read first: put every document back in file order, as a cached load has it.
  const fileOrder = new Map(files.map((f, i) => [f.file, i]));
  documents.sort(
    (a, b) => (fileOrder.get(a.file) ?? 0) - (fileOrder.get(b.file) ?? 0) || byPosition(a, b),
  );
  // A bundle of CRDs alone is checked (their schemas, as the API server checks them): not empty.
  if (collected.pending.length === 0 && collected.documents.length === 0) {
    findings.push(emptyInput(files.length));
  }
  findings.sort(compareFindings);
  return {
    definitions: collected.definitions,
    registry: collected.registry,
    resources,
    findings: capFindings(findings),
    documents,
  };
}

/** Findings reported per load; past this, the rest are counted in one last finding. */
export const MAX_FINDINGS_PER_LOAD = 1000;

/**
 * The first {@link MAX_FINDINGS_PER_LOAD} findings and a `too-many-findings` ("and N more"),
 * keeping every error's count in it: a run with a million problems prints a screenful. Another
 * tool's files' errors are kept only where the others leave room.
 */
function capFindings(findings: Finding[]): Finding[] {
  if (findings.length <= MAX_FINDINGS_PER_LOAD) return findings;
  // Another tool's files (istio's 1,837 release notes, `release-notes/v2`) are the ones left
  // out first: one error each of one cause, they would take the places of every other finding.
  const toolFiles = findings.filter(isToolFile).length;
  const toolFilesRoom = Math.max(0, MAX_FINDINGS_PER_LOAD - (findings.length - toolFiles));
  let toolFilesKept = 0;
  const kept: Finding[] = [];
  const rest: Finding[] = [];
  for (const finding of findings) {
    const fits = isToolFile(finding) ? toolFilesKept++ < toolFilesRoom : true;
    (fits && kept.length < MAX_FINDINGS_PER_LOAD ? kept : rest).push(finding);
  }
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

/** The error of a document of an apiVersion no Kubernetes API can serve: another tool's file. */
function isToolFile(finding: Finding): boolean {
  return finding.code === 'unknown-type' && finding.rule === 'tool-kind';
}

/** Nothing to load: no files, or files without a single resource or definition document. */
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
