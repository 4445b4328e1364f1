/**
 * The walking half of the manifest reader: which files below the given paths are manifests,
 * reading only those a name alone cannot tell (kustomizations, tests, other tools' files, JSON).
 * The reading half is `read-manifest-files.ts`. What the walk met is kept in a
 * `ManifestWalkRecord`, which the phases that read files once the walk is over add to
 * (`walked-kustomizations.ts`, `walked-tests.ts`).
 */

import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { compareStrings } from '../engine/compare-strings.js';
import type { Finding, FindingCode } from './finding.js';
import {
  errorCode,
  nodeFileSystem,
  type ManifestDirEntry,
  type FoundFile,
  type ManifestFileSystem,
  type ManifestStats,
} from './manifest-file-system.js';
import { hiddenManifestDirectories, isLookedInto } from './hidden-directories.js';
import { nearestPath } from './nearest-path.js';
import type { AppliedBy } from './applied-by.js';
import { POLICY_TEST_FILE, type PolicyTestTool } from './policy-tests.js';
import { CONFIG_FILE_NAMES } from './config-file-names.js';
import { unreadableFile } from './unreadable-file.js';
import {
  GO_TEST_DATA_DIRECTORY,
  goTestData,
  chainsawTest,
  nestedProject,
  HELM_CHART_FILE,
  HELM_CRDS_DIRECTORY,
  HELM_SUBCHARTS_DIRECTORY,
  helmChart,
  JSON_FILE,
  YAML_FILE,
} from './unrendered-sources.js';
import {
  isChainsawTestFile,
  isConventionalAssertion,
  isConventionalStep,
} from './chainsaw-tests.js';
import { isKustomizationFile } from './kustomization-inputs.js';
import { toolFileOf } from './tool-files.js';
import type { UnrenderedSource } from './unrendered-source.js';
import { ManifestWalkRecord } from './manifest-walk-record.js';
import { WalkedKustomizations } from './walked-kustomizations.js';
import { encloses } from './path-containment.js';
import { ignoreBase } from './ignore-file.js';
import { inApplyOrder, WalkedTests } from './walked-tests.js';
import { chartOthers, isHelmChartFile } from './walked-charts.js';
import { hasUndecodedName, pathErrorFinding, pathFinding } from './walk-findings.js';
import { readJsonFiles, readToolFiles, type ToolFile } from './walked-file-reads.js';
import { walkResult } from './walk-result.js';

/** What {@link walkManifestTree} returns. */
export interface ManifestTree {
  /**
   * Sorted by the path shown, but a chainsaw test's files in the order it applies them: the load
   * order.
   */
  readonly files: readonly FoundFile[];
  /** Paths that do not exist, cannot be read, are not regular files or loop. */
  readonly findings: readonly Finding[];
  /**
   * What the walk set aside as not manifests (see `unrendered-sources.ts`): Helm charts,
   * kustomizations and the files they use, chainsaw tests and the files they assert; sorted by
   * path.
   */
  readonly unrendered: readonly UnrenderedSource[];
}

/** Options of {@link walkManifestTree}. */
export interface WalkManifestTreeOptions {
  /** Relative paths are resolved against it; `process.cwd()` when omitted. */
  readonly cwd?: string;
  readonly fs?: ManifestFileSystem;
  /**
   * Patterns in `.gitignore` syntax (a `.cosiignore` file's lines, `--ignore`), matched against
   * paths relative to `cwd`, or to the outermost directory named that holds it (`ignoreBase`):
   * files and directories they match are skipped while walking a directory. A path given by name
   * is always read.
   */
  readonly ignore?: readonly string[];
  /**
   * Sets aside, not walked, each directory met inside one named that holds a config of its own
   * (`cosi.config.ts`): a project of its own, which a run with another config (or none) would
   * check without its definitions and controllers (see `nestedProject`), but for those
   * {@link SetAsideProjects} names. A directory named is walked whatever it holds.
   * Without it (`--config` named the one config for everything), every directory is walked.
   */
  readonly setAsideProjects?: SetAsideProjects;
}

/** Which projects met inside the paths named are walked all the same (see `setAsideProjects`). */
export interface SetAsideProjects {
  /** The config the run loaded (absolute): its directory is walked. */
  readonly except?: string;
  /**
   * Directories (absolute) checked as worlds of their own beside this walk's (`check --each`):
   * not walked, and not set aside either, as their own world checks them.
   */
  readonly apart?: readonly string[];
}

/** The path that stands for the standard input in a list of paths (`-f -`). */
export const STDIN_PATH = '-';

/**
 * Finds the manifest files below the given paths; reads directories, never files.
 *
 * Each path is a file (taken whatever its name) or a directory, searched recursively for
 * `*.yaml`, `*.yml` and `*.json` files (a JSON file that is no manifest, without a top-level
 * `apiVersion` or `kind`, is set aside); inside directories, other files, hidden entries (`.git`) and
 * `node_modules` are skipped. Symlinks are followed; a symlink loop is reported, not followed, and
 * so is one that leads outside the working directory and the paths named (as is a file a chainsaw
 * test names out there); a manifest that is not a regular file is reported. Files are deduplicated by their real path
 * and sorted by the path shown. Paths shown stay as given (relative paths stay relative).
 *
 * Inside directories, what only a render makes manifests of is set aside and listed in
 * `unrendered` (see `unrendered-sources.ts`): a directory holding a `Chart.yaml` is a Helm
 * chart, of which only `crds/` (and its subcharts' in `charts/`) is read; a kustomization file
 * is not read as a manifest, and neither are the patches and configuration files it names (the
 * walk reads it for their names); a chainsaw test (`chainsaw-test.yaml`) is not either, nor are
 * the files it asserts (read for their names too) or those named as kuttl and chainsaw name
 * assertions (`01-assert.yaml`, `02-errors.yaml`) in a test's directory (one with a chainsaw test
 * or a numbered step, `00-install.yaml`); nor is a file another tool reads by its name
 * (`mkdocs.yml`, `cloudbuild.yaml`: `toolFileOf`); nor is a Go package's `testdata/`, which Go's
 * tools skip too. A kustomization file or another tool's whose first document is a Kubernetes
 * object of another kind (a `values.yaml` that is a `Deployment`) is read as a manifest: the
 * name alone does not set it aside. A file or directory given by name is read whatever it is,
 * but for a kustomization file (`cosi check *.yaml`), which is no manifest.
 *
 * @example
 * const { files, findings } = await walkManifestTree(['manifests/'], { cwd });
 */
export async function walkManifestTree(
  paths: readonly string[],
  options: WalkManifestTreeOptions = {},
): Promise<ManifestTree> {
  const fs = options.fs ?? nodeFileSystem;
  const cwd = options.cwd ?? process.cwd();
  const ignored =
    options.ignore && options.ignore.length > 0 ? ignore().add([...options.ignore]) : undefined;
  // Known before the walk starts: `cosi check . ..` walks `.` first.
  const base =
    ignored === undefined
      ? undefined
      : await ignoreBase(path.resolve(cwd), paths, async (dir) => {
          try {
            return (await fs.stat(dir)).isDirectory();
          } catch {
            return false;
          }
        });
  const walker = new ManifestWalker(fs, cwd, ignored, base, options.setAsideProjects);
  for (const given of paths) {
    if (given === STDIN_PATH) continue;
    await walker.addPath(given);
  }
  await walker.readToolFiles();
  await walker.readKustomizations();
  await walker.readChainsawTests();
  await walker.readConventionalAssertions();
  await walker.readPolicyTests();
  await walker.readJsonFiles();
  await walker.readHiddenDirectories();
  return walker.tree();
}

/**
 * Whether a path that is not there is a glob pattern (`manifests/**\/*.yaml`). tinyglobby (with
 * fdir and picomatch, some 3 ms to load) is loaded by a run given a path that is not there.
 */
async function isGlob(given: string): Promise<boolean> {
  return (await import('tinyglobby')).isDynamicPattern(given);
}

/** Finds manifest files, reporting paths that do not exist, cannot be read or loop. */
class ManifestWalker {
  readonly #walkedDirs = new Set<string>();
  /**
   * The files met that another tool reads by their name, with what they are: read once the walk
   * is over (see {@link readToolFiles}), and set aside unless one holds a Kubernetes object.
   */
  readonly #toolFiles: ToolFile[] = [];
  /** The hidden directories met, not walked: looked into once the walk is over. */
  readonly #hiddenDirs: FoundFile[] = [];
  /** The directories (absolute) of the numbered steps met (`00-install.yaml`): tests' directories. */
  readonly #conventionalStepDirs = new Set<string>();
  /** Real paths of the walked JSON files that are no manifests (see {@link readJsonFiles}). */
  readonly #notManifests = new Set<string>();
  /** The chainsaw tests met, read once the walk is over (see {@link readChainsawTests}). */
  readonly #chainsawTests: FoundFile[] = [];
  /** Real paths of the walked files named as kuttl and chainsaw name assertions. */
  readonly #conventionalAssertions = new Set<string>();
  /**
   * Real paths of the files a chainsaw test applies, creates or updates: a resource sent to the
   * API server whole, whatever another test does with it or however it is named. Each with the
   * test and the namespace it applies it in, or `null` when more than one test applies it.
   */
  readonly #appliedByTests = new Map<string, AppliedBy | null>();
  /** Real paths of the walked files named as policy tests are (`suite.yaml`, `kyverno-test.yaml`). */
  readonly #policyTestCandidates = new Set<string>();
  /** Real path of a walked policy test -> its tool (see {@link readPolicyTests}). */
  readonly #policyTests = new Map<string, PolicyTestTool>();
  /** Real path of a file a policy test uses on its own -> the test (as shown), and how. */
  readonly #policyTestUses = new Map<
    string,
    { readonly test: string; readonly use: 'whole' | 'case' }
  >();
  /** Real path of a file a chainsaw test applies -> its place among the tests' operations. */
  readonly #applyOrder = new Map<string, number>();
  /** The tests the walk met, read once it is over: what they make of the files they name. */
  readonly #tests: WalkedTests;

  /** What the walk met, which the phases after it read and add to. */
  readonly #record: ManifestWalkRecord;
  /** Whether directories with configs of their own are set aside (see `setAsideProjects`). */
  readonly #projects: SetAsideProjects | undefined;
  /** The kustomizations met, read once the walk is over (see {@link readKustomizations}). */
  readonly #kustomizations: WalkedKustomizations;

  constructor(
    fs: ManifestFileSystem,
    cwd: string,
    ignored: Ignore | undefined,
    ignoreBase: string | undefined,
    projects?: SetAsideProjects,
  ) {
    this.#projects = projects;
    this.#record = new ManifestWalkRecord(fs, cwd, ignored, ignoreBase);
    this.#kustomizations = new WalkedKustomizations(this.#record);
    this.#tests = new WalkedTests({
      record: this.#record,
      chainsawTests: this.#chainsawTests,
      conventionalAssertions: this.#conventionalAssertions,
      conventionalStepDirs: this.#conventionalStepDirs,
      policyTestCandidates: this.#policyTestCandidates,
      appliedByTests: this.#appliedByTests,
      applyOrder: this.#applyOrder,
      policyTests: this.#policyTests,
      policyTestUses: this.#policyTestUses,
    });
  }

  async addPath(given: string): Promise<void> {
    if (given === '') {
      // Not the working directory, as path.resolve would have it: `cosi check "$DIR"` with the
      // variable unset would check another tree, and pass.
      this.#report(
        'path-not-found',
        given,
        `an empty path (${JSON.stringify(given)}) names no file or directory: is the variable meant to hold it unset?`,
      );
      return;
    }
    const absolute = path.resolve(this.#record.cwd, given);
    let stats: ManifestStats;
    try {
      stats = await this.#record.fs.stat(absolute);
    } catch (error) {
      const code = errorCode(error);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && (await isGlob(given))) {
        await this.#addGlob(given);
      } else if (code === 'ENOENT' || code === 'ENOTDIR') {
        const near = await nearestPath(this.#record.fs, this.#record.cwd, given);
        const hint = near === undefined ? '' : ` (did you mean ${near}?)`;
        this.#report('path-not-found', given, `${given} does not exist${hint}`);
      } else {
        this.#reportError(given, error);
      }
      return;
    }
    if (stats.isDirectory()) {
      const real = await this.#realpath(given, absolute);
      // A directory named on purpose is walked whatever the ignore patterns say of it: `--ignore
      // crds` keeps the CRDs out of `cosi check .`, not out of `--definitions crds`.
      if (this.#record.isIgnored(absolute, true)) this.#record.namedIgnored.push(absolute);
      this.#record.roots.push(absolute);
      if (real !== undefined) this.#record.namedRoots.push(real);
      // Walked once, when a glob names it and the directory above it too (`m/**`).
      if (real !== undefined && !this.#walkedDirs.has(real)) {
        await this.#walk(given, absolute, real, new Set([real]));
      }
    } else if (stats.isFile()) {
      const real = await this.#realpath(given, absolute);
      if (real === undefined) return;
      this.#record.met.add(real);
      if (isKustomizationFile(path.basename(absolute))) {
        // `cosi check *.yaml`: a kustomization is never a manifest, named or not; unless it holds
        // an object of another kind (see readKustomizations).
        this.#kustomizations.add({ display: given, absolute, real, named: true });
        return;
      }
      this.#record.named.add(real);
      this.#record.addFile(real, given, absolute);
    } else if (stats.isFIFO?.() === true || stats.isCharacterDevice?.() === true) {
      // `-f <(kustomize build overlays/prod)`, `-f /dev/stdin`: named, so read as a file is,
      // once. A pipe has no path of its own to resolve.
      const real = await this.#record.fs.realpath(absolute).catch(() => absolute);
      this.#record.met.add(real);
      this.#record.named.add(real);
      this.#record.addFile(real, given, absolute, true);
    } else {
      this.#record.findings.push(
        unreadableFile(given, `${given} is not a regular file or a directory`),
      );
    }
  }

  /**
   * A glob (`manifests/**\/*.yaml`, `'m/*'`): every file and directory it matches, as if given
   * one by one, as a shell expands it (a directory walked as a named one is; only directories
   * for a pattern that ends in `/`); and what it matches that is no file or directory, a link to
   * nothing or a named pipe, reported as a walk reports it. tinyglobby leaves those out, and a
   * glob's run passed where the directory's failed.
   */
  async #addGlob(pattern: string): Promise<void> {
    const { globMatches } = await import('./glob-matches.js');
    const { paths, others } = await globMatches(this.#record.fs, this.#record.cwd, pattern);
    if (paths.length === 0 && others.length === 0) {
      this.#report('path-not-found', pattern, `${pattern} matches no file or directory`);
      return;
    }
    for (const match of paths) await this.addPath(match);
    // One in a directory matched was reported by its walk (`m/**`).
    const reported = new Set(this.#record.findings.map((finding) => finding.file));
    for (const other of others) {
      if (reported.has(other)) continue;
      try {
        await this.#record.fs.stat(path.resolve(this.#record.cwd, other));
        this.#record.findings.push(unreadableFile(other, `${other} is not a regular file`));
      } catch (error) {
        this.#reportError(other, error);
      }
    }
  }

  /** What the walk found (see {@link walkResult}), a chainsaw test's files in its order. */
  tree(): ManifestTree {
    const { files, applyOrder, findings, unrendered } = walkResult({
      record: this.#record,
      kustomizations: this.#kustomizations,
      tests: this.#tests,
      appliedByTests: this.#appliedByTests,
      notManifests: this.#notManifests,
      policyTests: this.#policyTests,
      policyTestUses: this.#policyTestUses,
      applyOrder: this.#applyOrder,
    });
    return { files: inApplyOrder(files, applyOrder), findings, unrendered };
  }

  /** See {@link WalkedTests.readConventionalAssertions}. */
  async readConventionalAssertions(): Promise<void> {
    return this.#tests.readConventionalAssertions();
  }

  /** See {@link WalkedTests.readChainsawTests}. */
  async readChainsawTests(): Promise<void> {
    return this.#tests.readChainsawTests();
  }

  /** See {@link WalkedTests.readPolicyTests}. */
  async readPolicyTests(): Promise<void> {
    return this.#tests.readPolicyTests();
  }

  /** See {@link WalkedKustomizations.read}. */
  async readKustomizations(): Promise<void> {
    return this.#kustomizations.read();
  }

  /** See `walked-file-reads.ts`'s {@link readToolFiles}. */
  async readToolFiles(): Promise<void> {
    return readToolFiles(this.#record, this.#toolFiles);
  }

  /**
   * Says which of the hidden directories met hold Kubernetes objects (see
   * `hidden-directories.ts`), unless one is read all the same (a kustomization lists its file).
   */
  async readHiddenDirectories(): Promise<void> {
    if (this.#hiddenDirs.length === 0) return;
    const read = new Set([...this.#record.files.values()].map((file) => file.absolute));
    const said = await hiddenManifestDirectories(this.#record.fs, this.#hiddenDirs, read);
    this.#record.unrendered.push(...said);
  }

  /** See `walked-file-reads.ts`'s {@link readJsonFiles}. */
  async readJsonFiles(): Promise<void> {
    return readJsonFiles(this.#record, this.#notManifests);
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
    /**
     * `subcharts`: a chart's `charts/`, of which only the directories (its subcharts) are
     * walked; `subchart`: one of those, set aside with its parent chart (not said again).
     */
    role: 'plain' | 'subcharts' | 'subchart' = 'plain',
  ): Promise<void> {
    this.#walkedDirs.add(real);
    let entries: readonly ManifestDirEntry[];
    try {
      entries = await this.#record.fs.readdir(absolute);
    } catch (error) {
      this.#reportError(display, error);
      return;
    }
    // Sorted, so that which of two links to one directory gets walked does not depend on the OS.
    const sorted = [...entries].sort((a, b) => compareStrings(a.name, b.name));
    // A project of its own met inside a directory named (the roots' ancestors are themselves).
    if (role === 'plain' && ancestors.size > 1 && this.#projects !== undefined) {
      const except = this.#projects.except;
      const config = CONFIG_FILE_NAMES.find((name) =>
        sorted.some((entry) => entry.name === name && !entry.isDirectory()),
      );
      if (
        config !== undefined &&
        path.join(absolute, config) !== except &&
        path.join(real, config) !== except
      ) {
        const apart = this.#projects.apart ?? [];
        if (!apart.includes(absolute) && !apart.includes(real))
          this.#record.unrendered.push(nestedProject(display, config));
        // Not walked: a link naming it on the command line walks it all the same.
        this.#walkedDirs.delete(real);
        return;
      }
    }
    const subcharts = role === 'subcharts';
    const chart =
      !subcharts &&
      sorted.some((entry) => entry.name === HELM_CHART_FILE) &&
      (await isHelmChartFile(this.#record.fs, path.join(absolute, HELM_CHART_FILE)));
    if (chart && role !== 'subchart') {
      const others = chartOthers(sorted);
      this.#record.charts.push({
        index: this.#record.unrendered.length,
        display,
        absolute,
        others,
      });
      this.#record.unrendered.push(helmChart(display, others));
    }
    const directoryName = path.basename(absolute);
    for (const entry of sorted) {
      const name = entry.name;
      if (name.startsWith('.') || name === 'node_modules') {
        // Not walked; a hidden one is looked into once the walk is over (`.tekton/`).
        if (name.startsWith('.') && entry.isDirectory() && !chart && !subcharts) {
          const hidden = path.join(absolute, name);
          if (isLookedInto(name) && !this.#record.isIgnored(hidden, true)) {
            this.#hiddenDirs.push({ display: path.join(display, name), absolute: hidden });
          }
        }
        continue;
      }
      // A chart's templates and values are not manifests; its `crds/` and subcharts' are.
      if (chart && name !== HELM_CRDS_DIRECTORY && name !== HELM_SUBCHARTS_DIRECTORY) continue;
      const childDisplay = path.join(display, name);
      const childAbsolute = path.join(absolute, name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      let childReal: string | undefined = path.join(real, name);
      if (entry.isSymbolicLink()) {
        try {
          const stats = await this.#record.fs.stat(childAbsolute);
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
        // A link to a directory around the walk is a loop, said below.
        const loop = isDirectory && encloses(childReal, ancestors);
        if (!loop && !(await this.#record.isInside(childReal))) {
          // Said where a manifest or a directory of them was expected.
          if (isDirectory || YAML_FILE.test(name) || JSON_FILE.test(name)) {
            this.#record.reportOutside(childDisplay, childReal);
          }
          continue;
        }
      }
      if (this.#record.isIgnored(childAbsolute, isDirectory)) continue;
      if (isFile && hasUndecodedName(name) && (YAML_FILE.test(name) || JSON_FILE.test(name))) {
        // Node gives the name decoded, which opens nothing: said here, not at the read.
        const gone = await this.#record.fs.stat(childAbsolute).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (gone !== undefined) {
          this.#reportError(childDisplay, gone);
          continue;
        }
      }
      if (isFile) this.#record.met.add(childReal);
      if (isDirectory && role === 'plain' && name === GO_TEST_DATA_DIRECTORY) {
        this.#record.unrendered.push(goTestData(childDisplay));
      } else if (isDirectory) {
        // A link to a directory of the walk, or to one that holds it (`root -> /`, `up -> ../..`),
        // would walk the tree again and what is around it: the whole machine, for `/`.
        if (encloses(childReal, ancestors)) {
          this.#report(
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
            chart && name === HELM_SUBCHARTS_DIRECTORY
              ? 'subcharts'
              : subcharts
                ? 'subchart'
                : 'plain',
          );
        }
      } else if (subcharts) {
        // A packaged subchart, or a file beside them: not a manifest.
      } else if (isFile && isKustomizationFile(name)) {
        this.#kustomizations.add({
          display: childDisplay,
          absolute: childAbsolute,
          real: childReal,
          named: false,
        });
      } else if (isFile && isChainsawTestFile(name)) {
        this.#record.unrendered.push(chainsawTest(childDisplay));
        this.#chainsawTests.push({ display: childDisplay, absolute: childAbsolute });
      } else if (isFile && toolFileOf(name, directoryName) !== undefined) {
        this.#toolFiles.push({
          display: childDisplay,
          absolute: childAbsolute,
          real: childReal,
          named: false,
          what: toolFileOf(name, directoryName) as string,
        });
      } else if (YAML_FILE.test(name) || JSON_FILE.test(name)) {
        if (!isFile)
          this.#record.findings.push(
            unreadableFile(childDisplay, `${childDisplay} is not a regular file`),
          );
        else {
          this.#record.addFile(childReal, childDisplay, childAbsolute);
          if (JSON_FILE.test(name)) this.#record.walkedJson.add(childReal);
          if (POLICY_TEST_FILE.test(name)) this.#policyTestCandidates.add(childReal);
          if (isConventionalAssertion(name)) this.#conventionalAssertions.add(childReal);
          if (isConventionalStep(name)) this.#conventionalStepDirs.add(absolute);
        }
      }
    }
  }

  async #realpath(display: string, absolute: string): Promise<string | undefined> {
    try {
      return await this.#record.fs.realpath(absolute);
    } catch (error) {
      this.#reportError(display, error);
      return undefined;
    }
  }

  #report(code: FindingCode, file: string, message: string): void {
    this.#record.findings.push(pathFinding(code, file, message));
  }

  #reportError(display: string, error: unknown): void {
    this.#record.findings.push(pathErrorFinding(display, error));
  }
}
