/**
 * What a manifest walk has met so far, and made of it: the tables every phase of the walk reads
 * and writes (the files it takes, those named, those met, what it set aside, its findings), and
 * the few questions about a path they answer (is it ignored, inside the checked tree, named
 * apart). The walk (`walk-manifest-tree.ts`) fills it; what reads the files the walk met once it
 * is over (`walked-kustomizations.ts`) adds to it; the walk's tree is made from it.
 */

import * as path from 'node:path';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import type { Finding } from './finding.js';
import {
  READ_CONCURRENCY,
  type FoundFile,
  type ManifestFileSystem,
} from './manifest-file-system.js';
import { unreadableFile } from './unreadable-file.js';
import type { UnrenderedSource } from './unrendered-source.js';
import { isBelow } from './path-containment.js';

export /** A file met or named, with its real path, read before the walk decides what it is. */
interface NamedFile extends FoundFile {
  readonly real: string;
  /** Whether it was named on the command line (or matched by a glob). */
  readonly named: boolean;
}

/**
 * The ignore patterns' matcher (the `ignore` package's), by the one method the walk asks: named
 * here so that the declarations cosi ships do not name a package its users do not install.
 */
export interface IgnoreMatcher {
  ignores(path: string): boolean;
}

/** What a manifest walk has met so far (see the module comment). */
export class ManifestWalkRecord {
  constructor(
    readonly fs: ManifestFileSystem,
    readonly cwd: string,
    readonly ignored: IgnoreMatcher | undefined,
    /**
     * The directory named that holds `cwd` (`..`), absolute: the ignore patterns are relative to
     * it (see `ignoreBase`).
     */
    readonly ignoreBase?: string,
  ) {}

  /** Paths that do not exist, cannot be read, are not regular files or loop. */
  readonly findings: Finding[] = [];

  /** Real path -> the file, so that a file reached twice is read once. */
  readonly files = new Map<string, FoundFile>();

  /** Real paths of the files given by name (or matched by a glob): read whatever they are. */
  readonly named = new Set<string>();

  /** Real paths of every file the walk met or was given, whatever it made of it. */
  readonly met = new Set<string>();

  /** What the walk set aside (see `unrendered-sources.ts`), in the order it met them. */
  readonly unrendered: UnrenderedSource[] = [];

  /**
   * The charts set aside, each with its note's place in {@link unrendered} and the files and
   * directories at its root the note names as not read (`upstream.yaml`, `files/`): a file a
   * kustomization lists as a resource is read after all, and its name leaves the note.
   */
  readonly charts: {
    readonly index: number;
    readonly display: string;
    readonly absolute: string;
    readonly others: readonly string[];
  }[] = [];

  /** Real paths of the JSON files met in directories, read once the walk is over. */
  readonly walkedJson = new Set<string>();

  /** Directories named on purpose that the ignore patterns would skip: walked without them. */
  readonly namedIgnored: string[] = [];

  /** The directories named on the command line, absolute. */
  readonly roots: string[] = [];

  /** The directories named on the command line, real. */
  readonly namedRoots: string[] = [];

  /** The working directory, real (once asked for). */
  #realCwd: Promise<string> | undefined;

  /** `pipe`: a pipe or a device given by name, read as a stream (see {@link FoundFile.pipe}). */
  addFile(real: string, display: string, absolute: string, pipe = false): void {
    const known = this.files.get(real);
    if (known === undefined || display < known.display)
      this.files.set(real, { display, absolute, ...(pipe ? { pipe } : {}) });
  }

  /**
   * Whether a `.cosiignore` / `--ignore` pattern skips an entry met while walking: matched
   * against its path relative to the working directory (or to the directory named that holds it:
   * `cosi check ..`) or, outside it (`cosi check -f /elsewhere`), relative to the directory named
   * that holds it, so that `*.cosi-test.yaml` and `drafts/` skip there too.
   */
  isIgnored(absolute: string, isDirectory: boolean): boolean {
    if (this.ignored === undefined) return false;
    if (this.namedIgnored.some((root) => absolute.startsWith(`${root}${path.sep}`))) return false;
    let relative = path.relative(this.ignoreBase ?? this.cwd, absolute);
    if (relative.startsWith(`..${path.sep}`) || relative === '..' || path.isAbsolute(relative)) {
      const root = this.roots
        .filter((r) => absolute.startsWith(`${r}${path.sep}`))
        .reduce<string | undefined>(
          (a, b) => (a === undefined || b.length > a.length ? b : a),
          undefined,
        );
      if (root === undefined) return false;
      relative = path.relative(root, absolute);
    }
    if (relative === '') return false;
    const posix = relative.split(path.sep).join('/');
    return this.ignored.ignores(isDirectory ? `${posix}/` : posix);
  }

  /**
   * Whether what a walk reached through a symlink, or a test names, is inside the checked tree:
   * below the working directory or a directory named on the command line, or a file named there.
   * One outside (`leak.yaml -> /proc/self/environ`, a test's `file:
   * ../../../../home/runner/.docker/config.json`) is not read: a pull request checked in CI would
   * have its findings quote what the machine holds there.
   */
  async isInside(real: string): Promise<boolean> {
    this.#realCwd ??= this.fs.realpath(this.cwd).catch(() => this.cwd);
    const cwd = await this.#realCwd;
    return (
      this.named.has(real) ||
      [cwd, ...this.namedRoots].some((root) => real === root || isBelow(real, root))
    );
  }

  /** Says that `display`, which leads to `real` outside the checked tree, is not read. */
  reportOutside(display: string, real: string, by?: string): void {
    const named = by === undefined ? `${display} links to ${real}` : `${by} names ${display}`;
    this.findings.push(
      unreadableFile(
        display,
        `${named}, outside the working directory and the directories checked: not read (name it to check it)`,
      ),
    );
  }

  /**
   * Whether the file at `real` is below a directory named on the command line that the
   * kustomization's or test's directory `dir` is not in: such a file is read, not set aside, as
   * a directory named on purpose is walked whatever an outsider says of it (`cosi check .
   * manifests` with a root kustomization that names `manifests/web.yaml` as a patch).
   */
  namedApartFrom(real: string, dir: string): boolean {
    return this.namedRoots.some(
      (root) => isBelow(real, root) && dir !== root && !isBelow(dir, root),
    );
  }

  /** The real directory of each file (as found, when it cannot be resolved). */
  async realDirs(files: readonly FoundFile[]): Promise<string[]> {
    const dirs = new Array<string>(files.length);
    await forEachConcurrently(files, READ_CONCURRENCY, async ({ absolute }, i) => {
      const dir = path.dirname(absolute);
      dirs[i] = await this.fs.realpath(dir).catch(() => dir);
    });
    return dirs;
  }

  /**
   * The real paths of the files a kustomization or a test names, a few at a time: `undefined`
   * for one that is not there (the tool that names it reports that).
   */
  async namedRealpaths(
    named: readonly { readonly file: string }[],
  ): Promise<(string | undefined)[]> {
    const reals = new Array<string | undefined>(named.length);
    await forEachConcurrently(named, READ_CONCURRENCY, async ({ file }, i) => {
      try {
        reals[i] = await this.fs.realpath(file);
      } catch {
        // Not there: `undefined`.
      }
    });
    return reals;
  }
}
