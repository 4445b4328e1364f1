import * as nodeFs from 'node:fs/promises';
import * as path from 'node:path';
import { compareFindings, createFinding, type Finding, type FindingCode } from './finding.js';
import {
  loadManifests,
  type LoadManifestsOptions,
  type LoadResult,
  type ManifestFile,
} from './load-manifests.js';

/** A directory entry, as `readdir` with `withFileTypes` gives it. */
export interface ManifestDirEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The file-system calls {@link readManifests} makes; errors carry Node's `code` (`ENOENT`...). */
export interface ManifestFileSystem {
  /** Follows symlinks. */
  stat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean }>;
  readdir(path: string): Promise<readonly ManifestDirEntry[]>;
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<string>;
}

/** The real file system, through `node:fs/promises`. */
export const nodeFileSystem: ManifestFileSystem = {
  stat: (p) => nodeFs.stat(p),
  readdir: (p) => nodeFs.readdir(p, { withFileTypes: true }),
  realpath: (p) => nodeFs.realpath(p),
  readFile: (p) => nodeFs.readFile(p, 'utf8'),
};

/** Options of {@link readManifests}. */
export interface ReadManifestsOptions extends LoadManifestsOptions {
  /** Relative paths are resolved against it; `process.cwd()` when omitted. */
  readonly cwd?: string;
  readonly fs?: ManifestFileSystem;
}

/** What {@link readManifests} returns: the load, and the files it read. */
export interface ReadResult extends LoadResult {
  /** The manifest files found, as they appear in findings, sorted. */
  readonly files: string[];
}

const YAML_FILE = /\.ya?ml$/;
/** Files read at once: enough to keep the disk busy, few enough to stay clear of EMFILE. */
const READ_CONCURRENCY = 32;

/**
 * Reads the manifests below the given paths and loads them with {@link loadManifests}.
 *
 * Each path is a file (read whatever its name) or a directory, searched recursively for
 * `*.yaml` and `*.yml` files; inside directories, other files, hidden entries (`.git`) and
 * `node_modules` are skipped. Symlinks are followed; a symlink loop is reported, not followed.
 * Files are deduplicated by their real path and loaded in sorted path order. Paths in findings
 * stay as given (relative paths stay relative). Never throws for bad input.
 *
 * @example
 * const { resources, findings } = await readManifests(['manifests/'], { cwd: process.cwd() });
 */
export async function readManifests(
  paths: readonly string[],
  options: ReadManifestsOptions = {},
): Promise<ReadResult> {
  const walker = new ManifestWalker(options.fs ?? nodeFileSystem, options.cwd ?? process.cwd());
  for (const given of paths) await walker.addPath(given);
  const found = walker.sortedFiles();
  const manifests = await readAll(found, walker);
  const result = loadManifests(manifests, options);
  const findings = [...walker.findings, ...result.findings].sort(compareFindings);
  return { ...result, findings, files: manifests.map((m) => m.path) };
}

/** A manifest file found below the given paths. */
export interface FoundFile {
  /** As shown in findings. */
  readonly display: string;
  readonly absolute: string;
}

/** What {@link findManifestFiles} returns. */
export interface FoundFiles {
  /** Sorted by the path shown: the load order. */
  readonly files: readonly FoundFile[];
  /** Paths that do not exist, cannot be read or loop. */
  readonly findings: readonly Finding[];
}

/**
 * The file-finding half of {@link readManifests}, without reading any file: the same rules
 * (`*.yaml` / `*.yml`, hidden entries and `node_modules` skipped, symlinks followed, loops
 * reported), the same order. An incremental reader walks again on every change (directories
 * only) and reads just the files that changed.
 */
export async function findManifestFiles(
  paths: readonly string[],
  options: Pick<ReadManifestsOptions, 'cwd' | 'fs'> = {},
): Promise<FoundFiles> {
  const walker = new ManifestWalker(options.fs ?? nodeFileSystem, options.cwd ?? process.cwd());
  for (const given of paths) await walker.addPath(given);
  return { files: walker.sortedFiles(), findings: walker.findings };
}

/** Finds manifest files, reporting paths that do not exist, cannot be read or loop. */
class ManifestWalker {
  readonly findings: Finding[] = [];
  /** Real path -> the file, so that a file reached twice is read once. */
  readonly #files = new Map<string, FoundFile>();
  readonly #walkedDirs = new Set<string>();

  constructor(
    readonly fs: ManifestFileSystem,
    readonly cwd: string,
  ) {}

  async addPath(given: string): Promise<void> {
    const absolute = path.resolve(this.cwd, given);
    let stats: { isFile(): boolean; isDirectory(): boolean };
    try {
      stats = await this.fs.stat(absolute);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        this.report('path-not-found', given, `${given} does not exist`);
      } else {
        this.#reportError(given, error);
      }
      return;
    }
    if (stats.isDirectory()) {
      const real = await this.#realpath(given, absolute);
      if (real !== undefined) await this.#walk(given, absolute, real, new Set([real]));
    } else if (stats.isFile()) {
      const real = await this.#realpath(given, absolute);
      if (real !== undefined) this.#addFile(real, given, absolute);
    } else {
      this.report('unreadable-file', given, `${given} is not a regular file or a directory`);
    }
  }

  /** The files found, sorted by the path shown. */
  sortedFiles(): FoundFile[] {
    return [...this.#files.values()].sort((a, b) =>
      a.display < b.display ? -1 : a.display > b.display ? 1 : 0,
    );
  }

  report(code: FindingCode, file: string, message: string): void {
    this.findings.push(createFinding({ code, message, file, line: 0, col: 0, pointer: '' }));
  }

  /**
   * Walks a directory. `ancestors` holds the real paths of the directories above and including
   * this one: meeting one of them again means a symlink loop.
   */
  async #walk(
    display: string,
    absolute: string,
    real: string,
    ancestors: ReadonlySet<string>,
  ): Promise<void> {
    this.#walkedDirs.add(real);
    let entries: readonly ManifestDirEntry[];
    try {
      entries = await this.fs.readdir(absolute);
    } catch (error) {
      this.#reportError(display, error);
      return;
    }
    // Sorted, so that which of two links to one directory gets walked does not depend on the OS.
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of sorted) {
      const name = entry.name;
      if (name.startsWith('.') || name === 'node_modules') continue;
      const childDisplay = path.join(display, name);
      const childAbsolute = path.join(absolute, name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      let childReal: string | undefined = path.join(real, name);
      if (entry.isSymbolicLink()) {
        try {
          const stats = await this.fs.stat(childAbsolute);
          isDirectory = stats.isDirectory();
          isFile = stats.isFile();
        } catch (error) {
          // A dangling link matters only where a manifest was expected; a loop always does.
          if (errorCode(error) === 'ELOOP' || YAML_FILE.test(name)) {
            this.#reportError(childDisplay, error);
          }
          continue;
        }
        childReal = await this.#realpath(childDisplay, childAbsolute);
        if (childReal === undefined) continue;
      }
      if (isDirectory) {
        if (ancestors.has(childReal)) {
          this.report(
            'symlink-loop',
            childDisplay,
            `${childDisplay} links back to a directory above it; not followed`,
          );
        } else if (!this.#walkedDirs.has(childReal)) {
          await this.#walk(
            childDisplay,
            childAbsolute,
            childReal,
            new Set([...ancestors, childReal]),
          );
        }
      } else if (YAML_FILE.test(name)) {
        if (isFile) this.#addFile(childReal, childDisplay, childAbsolute);
        else this.report('unreadable-file', childDisplay, `${childDisplay} is not a regular file`);
      }
    }
  }

  #addFile(real: string, display: string, absolute: string): void {
    const known = this.#files.get(real);
    if (known === undefined || display < known.display)
      this.#files.set(real, { display, absolute });
  }

  async #realpath(display: string, absolute: string): Promise<string | undefined> {
    try {
      return await this.fs.realpath(absolute);
    } catch (error) {
      this.#reportError(display, error);
      return undefined;
    }
  }

  #reportError(display: string, error: unknown): void {
    const code = errorCode(error);
    if (code === 'ELOOP') {
      this.report('symlink-loop', display, `${display} is a symlink loop`);
    } else if (code === 'ENOENT') {
      this.report('unreadable-file', display, `${display} is a symlink to nothing`);
    } else {
      const reason = error instanceof Error ? error.message : String(error);
      this.report('unreadable-file', display, `cannot read ${display}: ${reason}`);
    }
  }
}

/** Reads the files, a few at a time, keeping their order; unreadable ones are reported. */
async function readAll(
  files: readonly FoundFile[],
  walker: ManifestWalker,
): Promise<ManifestFile[]> {
  const texts = new Array<string | undefined>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      const file = files[index] as FoundFile;
      try {
        texts[index] = await walker.fs.readFile(file.absolute);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        walker.report('unreadable-file', file.display, `cannot read ${file.display}: ${reason}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));
  const out: ManifestFile[] = [];
  files.forEach((file, i) => {
    const text = texts[i];
    if (text !== undefined) out.push({ path: file.display, text });
  });
  return out;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' ? code : undefined;
}
