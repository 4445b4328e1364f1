import * as path from 'node:path';
import { compareFindings, createFinding, type Finding } from './finding.js';
import type { ManifestFile } from './load-manifests.js';
import {
  ManifestCache,
  type CachedLoadResult,
  type ManifestCacheOptions,
} from './manifest-cache.js';
import {
  findManifestFiles,
  nodeFileSystem,
  type FoundFile,
  type ManifestFileSystem,
  type ReadResult,
} from './read-manifests.js';

/** Options of {@link ManifestReader}. */
export interface ManifestReaderOptions extends ManifestCacheOptions {
  readonly cwd?: string;
  readonly fs?: ManifestFileSystem;
}

/** What {@link ManifestReader.read} returns: `readManifests`' result, and what it cost. */
export interface IncrementalReadResult extends ReadResult {
  /** Display paths of the files read from disk by this call. */
  readonly read: readonly string[];
  /** Display paths of the files parsed by this call. */
  readonly parsed: CachedLoadResult['parsed'];
}

/**
 * An incremental `readManifests` for `cosi watch`: every call walks the given paths again (which
 * reads directories, not files), reads only the files that are new or were reported changed, and
 * parses only those whose content differs (see {@link ManifestCache}). The result equals
 * `readManifests` of the same paths.
 *
 * @example
 * const reader = new ManifestReader(['manifests/'], { cwd });
 * await reader.read(); // reads and parses everything
 * await reader.read(['/abs/manifests/vms.yaml']); // reads and parses vms.yaml only
 */
export class ManifestReader {
  readonly #paths: readonly string[];
  readonly #fs: ManifestFileSystem;
  readonly #cwd: string;
  readonly #cache: ManifestCache;
  /** Absolute path -> text, as last read. */
  #texts = new Map<string, string>();

  constructor(paths: readonly string[], options: ManifestReaderOptions = {}) {
    this.#paths = paths;
    this.#fs = options.fs ?? nodeFileSystem;
    this.#cwd = options.cwd ?? process.cwd();
    this.#cache = new ManifestCache(options);
  }

  /**
   * Loads the manifests again. `changed` holds absolute paths reported changed since the last
   * call; with none given (the first call), every file is read.
   */
  async read(changed?: Iterable<string>): Promise<IncrementalReadResult> {
    const stale = changed === undefined ? undefined : new Set([...changed].map(normalize));
    const found = await findManifestFiles(this.#paths, { cwd: this.#cwd, fs: this.#fs });
    const findings: Finding[] = [...found.findings];
    const texts = new Map<string, string>();
    const manifests: ManifestFile[] = [];
    const read: string[] = [];
    for (const file of found.files) {
      let text = stale?.has(file.absolute) === false ? this.#texts.get(file.absolute) : undefined;
      if (text === undefined) {
        text = await this.#readFile(file, findings);
        if (text === undefined) continue;
        read.push(file.display);
      }
      texts.set(file.absolute, text);
      manifests.push({ path: file.display, text });
    }
    this.#texts = texts;
    const result = this.#cache.load(manifests);
    return {
      ...result,
      findings: [...findings, ...result.findings].sort(compareFindings),
      files: manifests.map((m) => m.path),
      read,
    };
  }

  async #readFile(file: FoundFile, findings: Finding[]): Promise<string | undefined> {
    try {
      return await this.#fs.readFile(file.absolute);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      findings.push(
        createFinding({
          code: 'unreadable-file',
          message: `cannot read ${file.display}: ${reason}`,
          file: file.display,
          line: 0,
          col: 0,
          pointer: '',
        }),
      );
      return undefined;
    }
  }
}

function normalize(file: string): string {
  return path.resolve(file);
}
