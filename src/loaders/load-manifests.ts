import { loadParsedManifests } from './load-parsed-manifests.js';
import { parseManifest } from './parse/parse-manifest.js';
import { withAppliedBy } from './test-expressions.js';
import type { LoadManifestsOptions, LoadResult } from './load-options.js';
import type { ManifestFile } from './manifest-resource.js';
import { celRuleEngine } from './cel/cel-rule-engine.js';

export type { LoadManifestsOptions, LoadResult } from './load-options.js';
export type { ManifestFile, ManifestResource, ManifestSource } from './manifest-resource.js';
export type { Position } from './position.js';
export type { ResourceDocument } from './resource-document.js';
export { loadParsedManifests, MAX_FINDINGS_PER_LOAD } from './load-parsed-manifests.js';

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
  // Synchronous from start to end: CEL is linked in here and handed to the load, not loaded on
  // demand as the readers load it (see cel-rules.ts).
  return loadParsedManifests(
    files.map((file) =>
      withAppliedBy(
        parseManifest(
          file.text,
          file.path,
          file.origin ? { ...options, origin: file.origin } : options,
        ),
        file.appliedBy,
      ),
    ),
    options,
    () => celRuleEngine,
  );
}
