/**
 * The walking half of the manifest reader: which files below the given paths are manifests,
 * reading only those a name alone cannot tell (kustomizations, tests, other tools' files, JSON).
 * The reading half is `read-manifest-files.ts`.
 */

import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { compareStrings } from '../engine/compare-strings.js';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import { createFinding, type Finding, type FindingCode } from './finding.js';
import {
  errorCode,
  nodeFileSystem,
  type ManifestDirEntry,
  type FoundFile,
  type ManifestFileSystem,
  type ManifestStats,
} from './manifest-file-system.js';
import { hiddenManifestDirectories, isLookedInto } from './hidden-directories.js';
import { ManifestTooLargeError } from './manifest-size.js';
import { objectHeadOf } from './object-head.js';
import type { AppliedBy } from './applied-by.js';
import { POLICY_TEST_FILE, policyTest, type PolicyTestTool } from './policy-tests.js';
import { READ_CONCURRENCY, readManifestFiles } from './read-manifest-files.js';
import { cannotRead, unreadableFile } from './unreadable-file.js';
import {
  GO_TEST_DATA_DIRECTORY,
  goTestData,
  chainsawTest,
  HELM_CHART_FILE,
  HELM_CRDS_DIRECTORY,
  HELM_SUBCHARTS_DIRECTORY,
  helmChart,
  isChainsawTestFile,
  isConventionalAssertion,
  isConventionalStep,
  isJsonManifest,
  isKustomizationFile,
  isObjectNotKustomization,
  isObjectNotToolFile,
  JSON_FILE,
  jsonFile,
  kustomization,
  kustomizationInputs,
  kustomizeInput,
  testAssertion,
  toolFile,
  toolFileOf,
  type UnrenderedSource,
} from './unrendered-sources.js';
import { encloses, isBelow } from './path-containment.js';
import { inApplyOrder, WalkedTests } from './walked-tests.js';

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
   * paths relative to `cwd`: files and directories they match are skipped while walking a
   * directory. A path given by name is always read.
   */
  readonly ignore?: readonly string[];
}

/** The path that stands for the standard input in a list of paths (`-f -`). */
export const STDIN_PATH = '-';

const YAML_FILE = /\.ya?ml$/i;

/**
 * The directories of a Helm chart that are Helm's: what it renders (`templates/`), its
 * subcharts, its CRDs (read), and chart-testing's values files (`ci/`).
 */
const HELM_OWN_DIRECTORIES = new Set(['templates', 'charts', 'crds', 'ci']);
/** The YAML files at a chart's root that Helm reads itself: `Chart.yaml`, values, requirements. */
const HELM_OWN_FILE = /^(?:Chart|requirements|values(?:[-._].*)?)\.ya?ml$/i;

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
  const walker = new ManifestWalker(
    options.fs ?? nodeFileSystem,
    options.cwd ?? process.cwd(),
    options.ignore && options.ignore.length > 0 ? ignore().add([...options.ignore]) : undefined,
  );
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

/** A file met or named, with its real path, read before the walk decides what it is. */
interface NamedFile extends FoundFile {
  readonly real: string;
  /** Whether it was named on the command line (or matched by a glob). */
  readonly named: boolean;
}

/** A file a kustomization names as other than a resource, live or in a comment. */
interface KustomizeInputOf {
  readonly file: string;
  /** The kustomization, as shown. */
  readonly by: string;
  readonly commented: boolean;
}

/**
 * Whether a name met in a directory holds U+FFFD: the name Node gives for one in bytes that are
 * not UTF-8, which then opens nothing (ENOENT) though the directory lists it.
 */
function hasUndecodedName(name: string): boolean {
  return name.includes('\ufffd');
}

/** Finds manifest files, reporting paths that do not exist, cannot be read or loop. */
class ManifestWalker {
  readonly findings: Finding[] = [];
  /** Real path -> the file, so that a file reached twice is read once. */
  readonly #files = new Map<string, FoundFile>();
  readonly #walkedDirs = new Set<string>();
  /** Real paths of the files given by name (or matched by a glob): read whatever they are. */
  readonly #named = new Set<string>();
  /**
   * Real path of a file a kustomization names as a patch or configuration (or as a patch in a
   * comment) -> the kustomization.
   */
  readonly #kustomizeInputs = new Map<string, KustomizeInputOf>();
  readonly #unrendered: UnrenderedSource[] = [];
  /**
   * The charts set aside, each with its note's place in {@link #unrendered} and the files and
   * directories at its root the note names as not read (`upstream.yaml`, `files/`): a file a
   * kustomization lists as a resource is read after all, and its name leaves the note.
   */
  readonly #charts: {
    readonly index: number;
    readonly display: string;
    readonly absolute: string;
    readonly others: readonly string[];
  }[] = [];
  /**
   * The kustomizations met or named, read once the walk is over (see {@link readKustomizations}):
   * set aside then, unless one holds an object of another kind.
   */
  readonly #kustomizations: NamedFile[] = [];
  /**
   * The files met that another tool reads by their name, with what they are: read once the walk
   * is over (see {@link readToolFiles}), and set aside unless one holds a Kubernetes object.
   */
  readonly #toolFiles: (NamedFile & { readonly what: string })[] = [];
  /** The hidden directories met, not walked: looked into once the walk is over. */
  readonly #hiddenDirs: FoundFile[] = [];
  /** The directories (absolute) of the numbered steps met (`00-install.yaml`): tests' directories. */
  readonly #conventionalStepDirs = new Set<string>();
  /** Real paths of the JSON files met in directories, read once the walk is over. */
  readonly #walkedJson = new Set<string>();
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
  /** Real paths of every file the walk met or was given, whatever it made of it. */
  readonly #met = new Set<string>();
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

  constructor(
    readonly fs: ManifestFileSystem,
    readonly cwd: string,
    readonly ignored: Ignore | undefined,
  ) {
    this.#tests = new WalkedTests({
      fs,
      findings: this.findings,
      files: this.#files,
      named: this.#named,
      chainsawTests: this.#chainsawTests,
      conventionalAssertions: this.#conventionalAssertions,
      conventionalStepDirs: this.#conventionalStepDirs,
      policyTestCandidates: this.#policyTestCandidates,
      appliedByTests: this.#appliedByTests,
      applyOrder: this.#applyOrder,
      policyTests: this.#policyTests,
      policyTestUses: this.#policyTestUses,
      realDirs: async (files) => this.#realDirs(files),
      namedRealpaths: async (named) => this.#namedRealpaths(named),
      addNamedOutside: async (named, reals) => this.#addNamedOutside(named, reals),
      namedApartFrom: (real, dir) => this.#namedApartFrom(real, dir),
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
    const absolute = path.resolve(this.cwd, given);
    let stats: ManifestStats;
    try {
      stats = await this.fs.stat(absolute);
    } catch (error) {
      const code = errorCode(error);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && (await isGlob(given))) {
        await this.#addGlob(given);
      } else if (code === 'ENOENT' || code === 'ENOTDIR') {
        this.#report('path-not-found', given, `${given} does not exist`);
      } else {
        this.#reportError(given, error);
      }
      return;
    }
    if (stats.isDirectory()) {
      const real = await this.#realpath(given, absolute);
      // A directory named on purpose is walked whatever the ignore patterns say of it: `--ignore
      // crds` keeps the CRDs out of `cosi check .`, not out of `--definitions crds`.
      if (this.#isIgnored(absolute, true)) this.#namedIgnored.push(absolute);
      this.#roots.push(absolute);
      if (real !== undefined) this.#namedRoots.push(real);
      // Walked once, when a glob names it and the directory above it too (`m/**`).
      if (real !== undefined && !this.#walkedDirs.has(real)) {
        await this.#walk(given, absolute, real, new Set([real]));
      }
    } else if (stats.isFile()) {
      const real = await this.#realpath(given, absolute);
      if (real === undefined) return;
      this.#met.add(real);
      if (isKustomizationFile(path.basename(absolute))) {
        // `cosi check *.yaml`: a kustomization is never a manifest, named or not; unless it holds
        // an object of another kind (see readKustomizations).
        this.#addKustomization({ display: given, absolute, real, named: true });
        return;
      }
      this.#named.add(real);
      this.#addFile(real, given, absolute);
    } else if (stats.isFIFO?.() === true || stats.isCharacterDevice?.() === true) {
      // `-f <(kustomize build overlays/prod)`, `-f /dev/stdin`: named, so read as a file is,
      // once. A pipe has no path of its own to resolve.
      const real = await this.fs.realpath(absolute).catch(() => absolute);
      this.#met.add(real);
      this.#named.add(real);
      this.#addFile(real, given, absolute, true);
    } else {
      this.findings.push(unreadableFile(given, `${given} is not a regular file or a directory`));
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
    const { paths, others } = await globMatches(this.fs, this.cwd, pattern);
    if (paths.length === 0 && others.length === 0) {
      this.#report('path-not-found', pattern, `${pattern} matches no file or directory`);
      return;
    }
    for (const match of paths) await this.addPath(match);
    // One in a directory matched was reported by its walk (`m/**`).
    const reported = new Set(this.findings.map((finding) => finding.file));
    for (const other of others) {
      if (reported.has(other)) continue;
      try {
        await this.fs.stat(path.resolve(this.cwd, other));
        this.findings.push(unreadableFile(other, `${other} is not a regular file`));
      } catch (error) {
        this.#reportError(other, error);
      }
    }
  }

  /**
   * Whether the `Chart.yaml` at `absolute` makes its directory a Helm chart: not when it holds a
   * Kubernetes object (a top-level `apiVersion` and `kind`; Helm's has no `kind`), nor when it is
   * no regular file (a FIFO, whose read blocked the walk for ever): its directory is then walked
   * as any other, and the walk reports it as any manifest that is no regular file. One that
   * cannot be read is taken for what its name says.
   */
  async #isHelmChartFile(absolute: string): Promise<boolean> {
    try {
      if (!(await this.fs.stat(absolute)).isFile()) return false;
      return objectHeadOf(await this.fs.readFile(absolute)) === undefined;
    } catch {
      return true;
    }
  }

  /**
   * Keeps a kustomization met, once: a glob that matches its directory and the file too (`'**'`)
   * meets it twice. Named, it is the named one.
   */
  #addKustomization(found: NamedFile): void {
    const at = this.#kustomizationAt.get(found.real);
    if (at === undefined) {
      this.#kustomizationAt.set(found.real, this.#kustomizations.length);
      this.#kustomizations.push(found);
    } else if (found.named) this.#kustomizations[at] = found;
  }

  /** Where each kustomization met is in `#kustomizations`, by real path. */
  readonly #kustomizationAt = new Map<string, number>();

  /** Directories named on purpose that the ignore patterns would skip: walked without them. */
  readonly #namedIgnored: string[] = [];

  /** The directories named on the command line, absolute. */
  readonly #roots: string[] = [];

  /** The directories named on the command line, real. */
  readonly #namedRoots: string[] = [];

  /** The working directory, real (once asked for). */
  #realCwd: Promise<string> | undefined;

  /**
   * Whether what a walk reached through a symlink, or a test names, is inside the checked tree:
   * below the working directory or a directory named on the command line, or a file named there.
   * One outside (`leak.yaml -> /proc/self/environ`, a test's `file:
   * ../../../../home/runner/.docker/config.json`) is not read: a pull request checked in CI would
   * have its findings quote what the machine holds there.
   */
  async #isInside(real: string): Promise<boolean> {
    this.#realCwd ??= this.fs.realpath(this.cwd).catch(() => this.cwd);
    const cwd = await this.#realCwd;
    return (
      this.#named.has(real) ||
      [cwd, ...this.#namedRoots].some((root) => real === root || isBelow(real, root))
    );
  }

  /** Says that `display`, which leads to `real` outside the checked tree, is not read. */
  #reportOutside(display: string, real: string, by?: string): void {
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
  #namedApartFrom(real: string, dir: string): boolean {
    return this.#namedRoots.some(
      (root) => isBelow(real, root) && dir !== root && !isBelow(dir, root),
    );
  }

  /**
   * Whether a `.cosiignore` / `--ignore` pattern skips an entry met while walking: matched
   * against its path relative to the working directory or, outside it (`cosi check -f
   * /elsewhere`), relative to the directory named that holds it, so that `*.cosi-test.yaml` and
   * `drafts/` skip there too.
   */
  #isIgnored(absolute: string, isDirectory: boolean): boolean {
    if (this.ignored === undefined) return false;
    if (this.#namedIgnored.some((root) => absolute.startsWith(`${root}${path.sep}`))) return false;
    let relative = path.relative(this.cwd, absolute);
    if (relative.startsWith(`..${path.sep}`) || relative === '..' || path.isAbsolute(relative)) {
      const root = this.#roots
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
   * What the walk found: the files, sorted by the path shown, but for those a kustomization
   * uses or an end-to-end test matches or merges (set aside with the charts, kustomizations and
   * tests, unless given by name).
   */
  tree(): ManifestTree {
    const files: FoundFile[] = [];
    const unrendered = [...this.#unrendered];
    const conventionalTests = this.#conventionalTests();
    const applyOrder = new Map<FoundFile, number>();
    for (const [real, file] of this.#files) {
      const named = this.#named.has(real);
      const by = named ? undefined : this.#kustomizeInputs.get(real);
      const test = named || this.#appliedByTests.has(real) ? undefined : this.#testPartial(real);
      if (by !== undefined) unrendered.push(kustomizeInput(file.display, by.by, by.commented));
      else if (test !== undefined) unrendered.push(testAssertion(file.display, test.by));
      else if (!named && this.#notManifests.has(real)) unrendered.push(jsonFile(file.display));
      else if (!named && this.#policyTests.has(real)) {
        unrendered.push(policyTest(file.display, this.#policyTests.get(real) as PolicyTestTool));
      } else {
        // A file two chainsaw tests apply (`null`) is no test's, whatever its name.
        const byChainsaw = this.#appliedByTests.get(real);
        const tested = this.#policyTestUses.get(real);
        const appliedBy =
          byChainsaw !== undefined
            ? (byChainsaw ?? undefined)
            : tested !== undefined
              ? {
                  test: tested.test,
                  namespace: undefined,
                  templates: false,
                  policyTest: tested.use,
                }
              : isConventionalStep(path.basename(file.absolute))
                ? this.#conventionalStep(file, conventionalTests)
                : undefined;
        const found = appliedBy === undefined ? file : { ...file, appliedBy };
        files.push(found);
        const order = byChainsaw ? this.#applyOrder.get(real) : undefined;
        if (order !== undefined) applyOrder.set(found, order);
      }
    }
    files.sort((a, b) => compareStrings(a.display, b.display));
    return {
      files: inApplyOrder(files, applyOrder),
      findings: this.findings,
      unrendered: unrendered.sort((a, b) => compareStrings(a.path, b.path)),
    };
  }

  /** See {@link WalkedTests.conventionalStep}. */
  #conventionalStep(file: FoundFile, tests: ReadonlyMap<string, AppliedBy>): AppliedBy | undefined {
    return this.#tests.conventionalStep(file, tests);
  }

  /** See {@link WalkedTests.conventionalTests}. */
  #conventionalTests(): Map<string, AppliedBy> {
    return this.#tests.conventionalTests();
  }

  /** See {@link WalkedTests.testPartial}. */
  #testPartial(real: string): { by: { test: string; operation: string } | undefined } | undefined {
    return this.#tests.testPartial(real);
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

  /**
   * Reads the files the walk met that another tool reads by their name: each is set aside (see
   * {@link tree}) unless its first document is a Kubernetes object ({@link isObjectNotToolFile}:
   * a `values.yaml` that is a `Deployment`), which is read as any manifest. One that cannot be
   * read is set aside as its name says.
   */
  async readToolFiles(): Promise<void> {
    const reads = await readManifestFiles(this.fs, this.#toolFiles);
    reads.forEach((read, i) => {
      const { display, absolute, real, what } = this.#toolFiles[i] as NamedFile & { what: string };
      if ('text' in read && isObjectNotToolFile(read.text)) this.#addFile(real, display, absolute);
      else this.#unrendered.push(toolFile(display, what));
    });
  }

  /**
   * Says which of the hidden directories met hold Kubernetes objects (see
   * `hidden-directories.ts`), unless one is read all the same (a kustomization lists its file).
   */
  async readHiddenDirectories(): Promise<void> {
    if (this.#hiddenDirs.length === 0) return;
    const read = new Set([...this.#files.values()].map((file) => file.absolute));
    const said = await hiddenManifestDirectories(this.fs, this.#hiddenDirs, read);
    this.#unrendered.push(...said);
  }

  /**
   * Reads the kustomizations the walk met, a few at a time, for the files they name that are not
   * resources, which are then set aside too (see {@link tree}). One that cannot be read, or is
   * not YAML, is reported.
   */
  async readKustomizations(): Promise<void> {
    const reads = await readManifestFiles(this.fs, this.#kustomizations);
    const named: (KustomizeInputOf & { readonly dir: string })[] = [];
    const resources: { readonly file: string }[] = [];
    const resourceDirs: { readonly file: string; readonly dir: string; readonly shown: string }[] =
      [];
    const dirs = await this.#realDirs(this.#kustomizations);
    reads.forEach((read, i) => {
      const found = this.#kustomizations[i] as NamedFile;
      const { display, absolute } = found;
      if ('text' in read && isObjectNotKustomization(read.text)) {
        // A ConfigMap so named: kustomize refuses it, so nothing else would check it.
        if (found.named) this.#named.add(found.real);
        this.#addFile(found.real, display, absolute);
        return;
      }
      this.#unrendered.push(kustomization(display));
      if ('finding' in read) {
        this.findings.push(read.finding);
        return;
      }
      const inputs = kustomizationInputs(read.text, display, absolute);
      if (inputs.finding) this.findings.push(inputs.finding);
      const dir = dirs[i] as string;
      for (const file of inputs.files) named.push({ file, by: display, commented: false, dir });
      for (const file of inputs.commented) named.push({ file, by: display, commented: true, dir });
      for (const file of inputs.resources) resources.push({ file });
      // One met while walking: of one given by name (`cosi check *.yaml`), only what was named.
      if (!found.named) {
        for (const file of inputs.resources) resourceDirs.push({ file, dir, shown: display });
      }
    });
    await this.#addUnwalkedResources(resourceDirs);
    if (named.length === 0) return;
    // A file that is not there: kustomize's to report, not ours to skip.
    const reals = await this.#namedRealpaths(named);
    // What a kustomization lists as a resource, kustomize renders as one, whatever a patch line
    // (live or commented out, in it or another) says of the same file: read as a manifest.
    const resourceReals = new Set(await this.#namedRealpaths(resources));
    named.forEach((input, i) => {
      const real = reals[i];
      // Only below the kustomization's own directory: one elsewhere (`../../manifests/web.yaml`)
      // may be a manifest of its own, and a gate must not lose it to another file's say.
      if (real === undefined || !isBelow(real, input.dir) || resourceReals.has(real)) return;
      if (this.#namedApartFrom(real, input.dir)) return;
      // Named live before named in a comment; then by the first kustomization, by path.
      const known = this.#kustomizeInputs.get(real);
      const before =
        known === undefined ||
        (known.commented && !input.commented) ||
        (known.commented === input.commented && compareStrings(input.by, known.by) < 0);
      if (before)
        this.#kustomizeInputs.set(real, {
          file: input.file,
          by: input.by,
          commented: input.commented,
        });
    });
  }

  /**
   * Adds the YAML and JSON files the kustomizations met while walking list as resources that the
   * walk did not read: one in a Helm chart's directory (argo-cd's `redis-ha/chart/upstream.yaml`,
   * the chart rendered once and kept), a hidden one or a Go package's test data. `kustomize build` renders each as
   * a resource, so an invalid object there fails the build; set aside, it passed the check. Only
   * below the kustomization's own directory, as kustomize loads no other file, and not one the
   * ignore patterns skip. A chart's note no longer names a file of its root so read.
   */
  async #addUnwalkedResources(
    resources: readonly { readonly file: string; readonly dir: string; readonly shown: string }[],
  ): Promise<void> {
    const candidates = resources.filter(
      ({ file }) =>
        (YAML_FILE.test(file) || JSON_FILE.test(file)) &&
        !isKustomizationFile(path.basename(file)) &&
        !this.#isIgnored(file, false),
    );
    if (candidates.length === 0) return;
    const found = new Array<string | undefined>(candidates.length);
    await forEachConcurrently(candidates, READ_CONCURRENCY, async ({ file, dir }, i) => {
      try {
        if (!(await this.fs.stat(file)).isFile()) return;
        const real = await this.fs.realpath(file);
        if (isBelow(real, dir)) found[i] = real;
      } catch {
        // Not there: kustomize's to report.
      }
    });
    const read = new Set<string>();
    candidates.forEach(({ file, shown }, i) => {
      const real = found[i];
      if (real === undefined || this.#met.has(real)) return;
      this.#met.add(real);
      this.#addFile(real, path.isAbsolute(shown) ? file : path.relative(this.cwd, file), file);
      if (JSON_FILE.test(file)) this.#walkedJson.add(real);
      read.add(file);
    });
    if (read.size === 0) return;
    for (const chart of this.#charts) {
      const others = chart.others.filter(
        (name) => name.endsWith('/') || !read.has(path.join(chart.absolute, name)),
      );
      if (others.length < chart.others.length) {
        this.#unrendered[chart.index] = helmChart(chart.display, others);
      }
    }
  }

  /** The real directory of each file (as found, when it cannot be resolved). */
  async #realDirs(files: readonly FoundFile[]): Promise<string[]> {
    const dirs = new Array<string>(files.length);
    await forEachConcurrently(files, READ_CONCURRENCY, async ({ absolute }, i) => {
      const dir = path.dirname(absolute);
      dirs[i] = await this.fs.realpath(dir).catch(() => dir);
    });
    return dirs;
  }

  /**
   * Reads the JSON files met in directories (not named) to tell the manifests among them from a
   * repository's other JSON (`package.json`, JSON Schemas, a data file), which are set aside
   * (see {@link tree}). One too large for a manifest, or not UTF-8, is data too; one that cannot
   * be read for another reason stays a file, and its read says why.
   */
  async readJsonFiles(): Promise<void> {
    const walked = [...this.#walkedJson].filter((real) => !this.#named.has(real));
    const files = walked.map((real) => this.#files.get(real) as FoundFile);
    const reads = await readManifestFiles(this.fs, files);
    const tooLarge = new ManifestTooLargeError().message;
    reads.forEach((read, i) => {
      const data =
        'text' in read
          ? !isJsonManifest(read.text)
          : read.finding.code === 'invalid-encoding' || read.finding.message.endsWith(tooLarge);
      if (data) this.#notManifests.add(walked[i] as string);
    });
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
      entries = await this.fs.readdir(absolute);
    } catch (error) {
      this.#reportError(display, error);
      return;
    }
    // Sorted, so that which of two links to one directory gets walked does not depend on the OS.
    const sorted = [...entries].sort((a, b) => compareStrings(a.name, b.name));
    const subcharts = role === 'subcharts';
    const chart =
      !subcharts &&
      sorted.some((entry) => entry.name === HELM_CHART_FILE) &&
      (await this.#isHelmChartFile(path.join(absolute, HELM_CHART_FILE)));
    if (chart && role !== 'subchart') {
      const others = sorted
        .filter((entry) => !entry.name.startsWith('.'))
        .flatMap((entry) =>
          entry.isDirectory()
            ? HELM_OWN_DIRECTORIES.has(entry.name)
              ? []
              : [`${entry.name}/`]
            : YAML_FILE.test(entry.name) && !HELM_OWN_FILE.test(entry.name)
              ? [entry.name]
              : [],
        );
      this.#charts.push({ index: this.#unrendered.length, display, absolute, others });
      this.#unrendered.push(helmChart(display, others));
    }
    const directoryName = path.basename(absolute);
    for (const entry of sorted) {
      const name = entry.name;
      if (name.startsWith('.') || name === 'node_modules') {
        // Not walked; a hidden one is looked into once the walk is over (`.tekton/`).
        if (name.startsWith('.') && entry.isDirectory() && !chart && !subcharts) {
          const hidden = path.join(absolute, name);
          if (isLookedInto(name) && !this.#isIgnored(hidden, true)) {
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
        // A link to a directory around the walk is a loop, said below.
        const loop = isDirectory && encloses(childReal, ancestors);
        if (!loop && !(await this.#isInside(childReal))) {
          // Said where a manifest or a directory of them was expected.
          if (isDirectory || YAML_FILE.test(name) || JSON_FILE.test(name)) {
            this.#reportOutside(childDisplay, childReal);
          }
          continue;
        }
      }
      if (this.#isIgnored(childAbsolute, isDirectory)) continue;
      if (isFile && hasUndecodedName(name) && (YAML_FILE.test(name) || JSON_FILE.test(name))) {
        // Node gives the name decoded, which opens nothing: said here, not at the read.
        const gone = await this.fs.stat(childAbsolute).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (gone !== undefined) {
          this.#reportError(childDisplay, gone);
          continue;
        }
      }
      if (isFile) this.#met.add(childReal);
      if (isDirectory && role === 'plain' && name === GO_TEST_DATA_DIRECTORY) {
        this.#unrendered.push(goTestData(childDisplay));
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
        this.#addKustomization({
          display: childDisplay,
          absolute: childAbsolute,
          real: childReal,
          named: false,
        });
      } else if (isFile && isChainsawTestFile(name)) {
        this.#unrendered.push(chainsawTest(childDisplay));
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
          this.findings.push(unreadableFile(childDisplay, `${childDisplay} is not a regular file`));
        else {
          this.#addFile(childReal, childDisplay, childAbsolute);
          if (JSON_FILE.test(name)) this.#walkedJson.add(childReal);
          if (POLICY_TEST_FILE.test(name)) this.#policyTestCandidates.add(childReal);
          if (isConventionalAssertion(name)) this.#conventionalAssertions.add(childReal);
          if (isConventionalStep(name)) this.#conventionalStepDirs.add(absolute);
        }
      }
    }
  }

  /**
   * The real paths of the files a kustomization or a test names, a few at a time: `undefined`
   * for one that is not there (the tool that names it reports that).
   */
  async #namedRealpaths(
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

  /**
   * Adds the files tests name that the walk did not meet, outside the paths given (a test's
   * `../policy.yaml`, what `chainsaw test DIR` and `kyverno test DIR` read too), so that a test's
   * directory given alone is checked with what it applies. Each is then the test's as any file it
   * names (see {@link tree}). Not one that is no YAML or JSON file, no regular file, or that the
   * ignore patterns skip. Shown relative to the working directory, or absolute beside a test
   * shown so.
   */
  async #addNamedOutside(
    named: readonly { readonly file: string; readonly test: string }[],
    reals: readonly (string | undefined)[],
  ): Promise<void> {
    const outside = named.flatMap(({ file, test }, i) => {
      const real = reals[i];
      return real !== undefined &&
        !this.#met.has(real) &&
        (YAML_FILE.test(file) || JSON_FILE.test(file)) &&
        !this.#isIgnored(file, false)
        ? [{ file, test, real }]
        : [];
    });
    const regular = new Array<boolean>(outside.length).fill(false);
    const beyond = new Array<boolean>(outside.length).fill(false);
    await forEachConcurrently(outside, READ_CONCURRENCY, async ({ file, real }, i) => {
      beyond[i] = !(await this.#isInside(real));
      if (beyond[i]) return;
      try {
        regular[i] = (await this.fs.stat(file)).isFile();
      } catch {
        // Gone since: the test's tool reports it.
      }
    });
    outside.forEach(({ file, test, real }, i) => {
      if (beyond[i]) {
        this.#reportOutside(
          path.isAbsolute(test) ? file : path.relative(this.cwd, file),
          real,
          test,
        );
        return;
      }
      if (!regular[i] || this.#met.has(real)) return;
      this.#met.add(real);
      this.#addFile(real, path.isAbsolute(test) ? file : path.relative(this.cwd, file), file);
      if (JSON_FILE.test(file)) this.#walkedJson.add(real);
    });
  }

  /** `pipe`: a pipe or a device given by name, read as a stream (see {@link FoundFile.pipe}). */
  #addFile(real: string, display: string, absolute: string, pipe = false): void {
    const known = this.#files.get(real);
    if (known === undefined || display < known.display)
      this.#files.set(real, { display, absolute, ...(pipe ? { pipe } : {}) });
  }

  async #realpath(display: string, absolute: string): Promise<string | undefined> {
    try {
      return await this.fs.realpath(absolute);
    } catch (error) {
      this.#reportError(display, error);
      return undefined;
    }
  }

  #report(code: FindingCode, file: string, message: string): void {
    this.findings.push(createFinding({ code, message, file, line: 0, col: 0, pointer: '' }));
  }

  #reportError(display: string, error: unknown): void {
    const code = errorCode(error);
    if (code === 'ELOOP') {
      this.#report('symlink-loop', display, `${display} is a symlink loop`);
    } else if (code === 'ENOENT' && hasUndecodedName(path.basename(display))) {
      this.findings.push(
        unreadableFile(
          display,
          `${display} is named in bytes that are not UTF-8 (shown as \ufffd): cosi cannot open it by that name; rename it`,
        ),
      );
    } else if (code === 'ENOENT') {
      this.findings.push(unreadableFile(display, `${display} is a symlink to nothing`));
    } else {
      this.findings.push(cannotRead(display, error));
    }
  }
}
