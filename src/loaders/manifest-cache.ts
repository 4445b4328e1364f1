import {
  loadParsedManifests,
  type LoadManifestsOptions,
  type LoadResult,
  type ManifestFile,
} from './load-manifests.js';
import { parseManifest, type ParsedManifest } from './parse-manifest.js';

/** Parses one file; `parseManifest` unless a test counts the calls. */
export type ParseFunction = typeof parseManifest;

/** Options of {@link ManifestCache}: those of `loadManifests`, and the parse function. */
export interface ManifestCacheOptions extends LoadManifestsOptions {
  readonly parse?: ParseFunction;
}

/** What {@link ManifestCache.load} returns: the load, and which files had to be parsed. */
export interface CachedLoadResult extends LoadResult {
  /** Paths of the files parsed by this load (new or changed); the others were reused. */
  readonly parsed: readonly string[];
}

interface Entry {
  readonly text: string;
  readonly parsed: ParsedManifest;
}

/**
 * An incremental `loadManifests`: keeps each file's parse keyed by its path and content, so a
 * load after a one-file edit parses that file only. The resolution and validation pass (types,
 * schemas, duplicates across files) runs over all files every time: it is cheap next to parsing
 * YAML, and it is what makes the result equal to a full `loadManifests` of the same files.
 *
 * Pure: the files are given as text. Files not given to a load are forgotten.
 *
 * @example
 * const cache = new ManifestCache({ definitions });
 * cache.load(files); // parses every file
 * cache.load(files.map((f) => (f.path === 'vms.yaml' ? { ...f, text: edited } : f))); // parses vms.yaml
 */
export class ManifestCache {
  readonly #options: ManifestCacheOptions;
  readonly #parse: ParseFunction;
  #entries = new Map<string, Entry>();

  constructor(options: ManifestCacheOptions = {}) {
    this.#options = options;
    this.#parse = options.parse ?? parseManifest;
  }

  /** Loads `files` (in load order), parsing only those whose path or text is new. */
  load(files: readonly ManifestFile[]): CachedLoadResult {
    const entries = new Map<string, Entry>();
    const parsed: string[] = [];
    for (const file of files) {
      let entry = this.#entries.get(file.path);
      if (entry?.text !== file.text) {
        entry = { text: file.text, parsed: this.#parse(file.text, file.path, this.#options) };
        parsed.push(file.path);
      }
      entries.set(file.path, entry);
    }
    this.#entries = entries;
    const result = loadParsedManifests(
      files.map((file) => (entries.get(file.path) as Entry).parsed),
      this.#options,
    );
    return { ...result, parsed };
  }
}
